import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, csvLine, detectSeparator, parseCsv } from './csv.ts';

describe('parseCsv', () => {
  it('splits rows and fields; CRLF, LF and CR end a row; the line numbers are kept', () => {
    expect(parseCsv('a;b\r\nc;d\ne;f\rg', ';')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['c', 'd'] },
      { line: 3, fields: ['e', 'f'] },
      { line: 4, fields: ['g'] },
    ]);
    expect(parseCsv('a,b\r\n', ',')).toEqual([{ line: 1, fields: ['a', 'b'] }]);
    expect(parseCsv('', ',')).toEqual([]);
    expect(parseCsv('a;;\n\nb', ';')).toEqual([
      { line: 1, fields: ['a', '', ''] },
      { line: 2, fields: [''] },
      { line: 3, fields: ['b'] },
    ]);
  });

  it('quoted fields hold separators, doubled quotes and line breaks', () => {
    const rows = parseCsv('"x;y";"say ""hi""";"two\r\nlines"\r\nnext;"";z', ';');
    expect(rows).toEqual([
      { line: 1, fields: ['x;y', 'say "hi"', 'two\r\nlines'] },
      { line: 3, fields: ['next', '', 'z'] },
    ]);
  });

  it('drops a byte order mark; a quote inside an unquoted field is text', () => {
    expect(parseCsv('\ufeffName,Type\n', ',')).toEqual([{ line: 1, fields: ['Name', 'Type'] }]);
    expect(parseCsv('5" pipe,x', ',')).toEqual([{ line: 1, fields: ['5" pipe', 'x'] }]);
  });

  it('an unterminated quote runs to the end of the text', () => {
    expect(parseCsv('a;"b\nc', ';')).toEqual([{ line: 1, fields: ['a', 'b\nc'] }]);
  });
});

describe('detectSeparator', () => {
  it('finds semicolon, comma and tab lists', () => {
    expect(detectSeparator('Class;Identifier;Type\nVAR_GLOBAL;a;INT\n')).toBe(';');
    expect(detectSeparator('Class,Identifier,Type\nVAR_GLOBAL,a,INT\nVAR_GLOBAL,"b;c",INT\n')).toBe(',');
    expect(detectSeparator('Class\tIdentifier\tType\nVAR_GLOBAL\ta, b\tINT\n')).toBe('\t');
  });

  it('commas inside quoted comments do not fool it', () => {
    const text = 'Class;Name;Address;Type;Comment\nVAR_GLOBAL;a;DT1;INT;"1, 2, 3, 4, 5"\nVAR_GLOBAL;b;DT2;INT;"x, y"\n';
    expect(detectSeparator(text)).toBe(';');
  });
});

describe('csvField / csvLine', () => {
  it('quotes only what needs it', () => {
    expect(csvField('plain', ';')).toBe('plain');
    expect(csvField('a;b', ';')).toBe('"a;b"');
    expect(csvField('a,b', ';')).toBe('a,b');
    expect(csvField('say "hi"', ',')).toBe('"say ""hi"""');
    expect(csvField('x\ny', ',')).toBe('"x\ny"');
    expect(csvLine(['a', 'b;c', ''], ';')).toBe('a;"b;c";');
  });

  it('property: csvLine → parseCsv gives the fields back', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'Z', '1', ' ', ';', ',', '\t', '"', '\r', '\n', 'ä') });
    fc.assert(
      fc.property(fc.constantFrom(';', ',', '\t'), fc.array(text, { minLength: 2, maxLength: 6 }), (sep, fields) => {
        const rows = parseCsv(`${csvLine(fields, sep)}\r\n`, sep);
        expect(rows.length).toBe(1);
        expect(rows[0]!.fields).toEqual(fields);
      }),
    );
  });
});
