import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitRecords } from './csv-records.ts';

describe('CSV records', () => {
  it('splits CRLF lines at the separator', () => {
    expect(splitRecords('a,b\r\n1,2\r\n', ',')).toEqual({
      records: [
        ['a', 'b'],
        ['1', '2'],
      ],
      torn: false,
    });
    expect(splitRecords('a;b\r\n;\r\n', ';').records).toEqual([
      ['a', 'b'],
      ['', ''],
    ]);
    expect(splitRecords('a\tb\n', '\t').records).toEqual([['a', 'b']]);
  });

  it('leaves out a torn last line and says so', () => {
    expect(splitRecords('1,2\r\n3,4\r', ',')).toEqual({ records: [['1', '2']], torn: true });
    expect(splitRecords('1,2\r\n3,', ',')).toEqual({ records: [['1', '2']], torn: true });
    expect(splitRecords('', ',')).toEqual({ records: [], torn: false });
  });

  it('reads quoted texts with separators, doubled quotes and line ends inside', () => {
    const text = '2026/01/02,10:00:00,"a,b","say ""hi""","two\r\nlines",5\r\n2026/01/02,10:00:01,x,y,z,6\r\n';
    expect(splitRecords(text, ',').records).toEqual([
      ['2026/01/02', '10:00:00', 'a,b', 'say "hi"', 'two\r\nlines', '5'],
      ['2026/01/02', '10:00:01', 'x', 'y', 'z', '6'],
    ]);
  });

  it('a quoted text that never closes is a torn record', () => {
    expect(splitRecords('1,2\r\n3,"open\r\n4,5\r\n', ',')).toEqual({ records: [['1', '2']], torn: true });
  });

  it('keeps a stray quote inside an unquoted field', () => {
    expect(splitRecords('a"b,c\r\n', ',').records).toEqual([['a"b', 'c']]);
  });

  it("reads back any table written in the logger's quoting (property)", () => {
    const sep = fc.constantFrom(',', ';', '/', '\t');
    const field = fc.string({ unit: fc.constantFrom('a', '1', ',', ';', '/', '\t', '"', '\r', '\n', ' ', 'é'), maxLength: 6 });
    fc.assert(
      fc.property(sep, fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { maxLength: 6 }), (s, rows) => {
        const quote = (f: string) => (f.includes(s) || /["\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f);
        const text = rows.map((r) => `${r.map(quote).join(s)}\r\n`).join('');
        expect(splitRecords(text, s)).toEqual({ records: rows, torn: false });
        if (text.length > 0) expect(splitRecords(text.slice(0, -1), s).records).toEqual(rows.slice(0, -1));
      }),
    );
  });
});
