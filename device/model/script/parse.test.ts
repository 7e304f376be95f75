import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyText } from '../../../test/support/any-text.ts';
import { DEFAULT_SCRIPT } from '../../system/default-script.ts';
import { LINES_MAX, SCRIPT_ERROR_CODES, VARIABLES_MAX } from './language.ts';
import { parseScript } from './parse.ts';

const errorsOf = (text: string) => parseScript(text).errors.map((e) => [e.line, e.column, e.code]);

describe('script parser', () => {
  it('reads the default script without errors, with its three sections', () => {
    const r = parseScript(DEFAULT_SCRIPT);
    expect(r.errors).toEqual([]);
    expect(r.program.sections.map((s) => [s.kind, s.statements.length])).toEqual([
      ['init', 1],
      ['cycle', 4],
      ['on', 1],
    ]);
    expect(r.program.names).toEqual(['temp_in', 'temp_out', 'pieces']);
    const cycle = r.program.sections[1]!;
    expect(cycle).toMatchObject({ kind: 'cycle', seconds: 60 });
    expect(cycle.statements[2]).toEqual({ op: 'read', line: expect.any(Number), name: 'pieces', area: 'DT', address: 200, type: 'UDINT' });
    expect(r.program.sections[2]).toMatchObject({ kind: 'on', flag: 'R10A', word: 10, bit: 10 });
  });

  it('reads every statement with its parts', () => {
    const r = parseScript(
      [
        '[init]',
        'read a=DT 5',
        'read b = WR 3 BOOL',
        'read c = INTERN 32766 dint',
        'write DT 10 = -12',
        'write INTERN 0 = c',
        'write WY 2 = 1.5 REAL',
        'file out-1.csv',
        'append a, b,c',
        'send',
      ].join('\n'),
    );
    expect(r.errors).toEqual([]);
    expect(r.program.sections[0]!.statements).toEqual([
      { op: 'read', line: 2, name: 'a', area: 'DT', address: 5, type: 'INT' },
      { op: 'read', line: 3, name: 'b', area: 'WR', address: 3, type: 'BOOL' },
      { op: 'read', line: 4, name: 'c', area: 'INTERN', address: 32766, type: 'DINT' },
      { op: 'write', line: 5, area: 'DT', address: 10, type: 'INT', value: { kind: 'number', value: -12 } },
      // a write of a name takes the name's type
      { op: 'write', line: 6, area: 'INTERN', address: 0, type: 'DINT', value: { kind: 'name', name: 'c' } },
      { op: 'write', line: 7, area: 'WY', address: 2, type: 'REAL', value: { kind: 'number', value: 1.5 } },
      { op: 'file', line: 8, name: 'out-1.csv' },
      { op: 'append', line: 9, names: ['a', 'b', 'c'] },
      { op: 'send', line: 10 },
    ]);
  });

  it('reports each error class with its line and column', () => {
    const text = [
      'read x = DT 1', //            1: outside any section
      '[init]', //                   2
      'raed x = DT 1', //            3: unknown statement
      'read x = DX 1', //            4: bad area
      'read x = DT 1 LONG', //       5: bad type
      'read 1x = DT 1', //           6: bad name
      '[cycle 0]', //                7: cycle out of range
      '[cycle 90000]', //            8
      '[init]', //                   9: duplicate section
      '[on R10A]', //                10
      '[on r10a]', //                11: duplicate (the same relay)
      '[on Q1]', //                  12: bad flag
      '[every 5]', //                13: unknown section
      'read y = DT 999999', //       14: bad address
      'write WX 1 = 3', //           15: input area
      'write DT 1 = 70000', //       16: INT cannot hold it
      'write DT 1 = $', //           17: bad value
      'append y, nobody', //         18: unknown names (line 14 did not set y), no valid file statement
      'file values.txt', //          19: bad file name
      'read y DT 1', //              20: '=' missing
      'send now', //                 21: a word too many
    ].join('\n');
    expect(errorsOf(text)).toEqual([
      [1, 1, 'outside_section'],
      [3, 1, 'unknown_statement'],
      [4, 10, 'bad_area'],
      [5, 15, 'bad_type'],
      [6, 6, 'bad_name'],
      [7, 8, 'cycle_range'],
      [8, 8, 'cycle_range'],
      [9, 1, 'duplicate_section'],
      [11, 1, 'duplicate_section'],
      [12, 5, 'bad_flag'],
      [13, 2, 'unknown_section'],
      [14, 13, 'bad_address'],
      [15, 7, 'read_only_area'],
      [16, 14, 'value_range'],
      [17, 14, 'bad_value'],
      [18, 1, 'no_file'],
      [18, 8, 'unknown_name'],
      [18, 11, 'unknown_name'],
      [19, 6, 'bad_file_name'],
      [20, 8, 'syntax'],
      [21, 6, 'syntax'],
    ]);
    expect(parseScript('[init]\nread x = DT 1\nappend x').errors).toEqual([{ line: 3, column: 1, code: 'no_file' }]);
    expect(parseScript('[cycle 0]').errors[0]).toEqual({ line: 1, column: 8, code: 'cycle_range', params: { min: 1, max: 86400 } });
    expect(parseScript('[init]\n[init]').errors[0]).toMatchObject({ code: 'duplicate_section', params: { first: 1 } });
  });

  it("takes the data logger's date and time placeholders in a file name, and refuses others with their own code", () => {
    expect(errorsOf('[init]\nfile audit_%Y%m%d.csv')).toEqual([]);
    expect(errorsOf('[init]\nfile line-%y%m%d_%H%M%S_w%W.CSV')).toEqual([]);
    expect(parseScript('[init]\nfile audit_%Q.csv').errors).toEqual([
      { line: 2, column: 12, code: 'bad_file_placeholder', params: { placeholder: '%Q', allowed: '%Y %y %m %d %H %M %S %W' } },
    ]);
    expect(errorsOf('[init]\nfile a%%.csv')).toEqual([[2, 7, 'bad_file_placeholder']]);
    expect(errorsOf('[init]\nfile a%.csv')).toEqual([[2, 7, 'bad_file_placeholder']]);
    expect(errorsOf('[init]\nfile %Y.csv')).toEqual([[2, 6, 'bad_file_name']]); // a letter first
    // at most 30 characters once the placeholders are filled in: %Y puts in four digits
    expect(errorsOf(`[init]\nfile ${'a'.repeat(22)}%m%d.csv`)).toEqual([]); // 22 + 4 + 4 = 30
    expect(errorsOf(`[init]\nfile ${'a'.repeat(24)}%Y.csv`)).toEqual([[2, 6, 'bad_file_name']]); // 30 written, 32 on the volume
  });

  it('keeps a value of a 32-bit type inside its area and to its range', () => {
    expect(errorsOf('[init]\nread a = INTERN 32767 DINT')).toEqual([[2, 10, 'bad_address']]);
    expect(errorsOf('[init]\nwrite DT 1 = 1.5')).toEqual([[2, 14, 'value_range']]);
    expect(errorsOf('[init]\nwrite DT 1 = 4294967295 UDINT')).toEqual([]);
    expect(errorsOf('[init]\nwrite DT 1 = 2 BOOL')).toEqual([[2, 14, 'value_range']]);
  });

  it('bounds lines and names', () => {
    const many = ['[init]', ...Array.from({ length: LINES_MAX }, () => 'send')].join('\n');
    expect(errorsOf(many)).toEqual([[LINES_MAX + 1, 1, 'too_many_lines']]);
    const names = ['[init]', ...Array.from({ length: VARIABLES_MAX + 1 }, (_, i) => `read v${i} = DT ${i}`)].join('\n');
    expect(errorsOf(names)).toEqual([[VARIABLES_MAX + 2, 1, 'too_many_names']]);
  });

  it('never throws on random text, and every error has a known code and a place on a line', () => {
    const words = fc.constantFrom(
      '[init]',
      '[cycle 5]',
      '[on R1]',
      'read',
      'write',
      'file',
      'append',
      'send',
      '=',
      ',',
      'DT',
      'INTERN',
      '1',
      'x',
      'REAL',
      '#',
      '[',
      ']',
      '\n',
      ' ',
      '\t',
      '\r',
    );
    const text = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.array(words, { maxLength: 80 }).map((w) => w.join(' ')),
      anyText(200),
    );
    fc.assert(
      fc.property(text, (t) => {
        const r = parseScript(t);
        const lines = t.split(/\r\n|\r|\n/);
        for (const e of r.errors) {
          expect(SCRIPT_ERROR_CODES).toContain(e.code);
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.line).toBeLessThanOrEqual(lines.length);
          expect(e.column).toBeGreaterThanOrEqual(1);
          expect(e.column).toBeLessThanOrEqual(lines[e.line - 1]!.length + 1);
        }
      }),
      { numRuns: 800 },
    );
  }, 60_000);
});
