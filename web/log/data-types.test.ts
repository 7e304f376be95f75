import { describe, expect, it } from 'vitest';
import { LOG_TYPE_CODES, LOG_TYPES } from '../../device/model/sections/logfile.ts';
import { parseTypeName, typeName } from './data-types.ts';

describe('parseTypeName', () => {
  it('FPWIN elementary types map to the log types of spec §3', () => {
    const cases: [string, string][] = [
      ['INT', 'int'],
      ['UINT', 'uint'],
      ['WORD', 'hex'],
      ['DINT', 'dint'],
      ['UDINT', 'udint'],
      ['DWORD', 'hex32'],
      ['REAL', 'real'],
      ['LREAL', 'lreal'],
      ['LINT', 'int64'],
      ['ULINT', 'uint64'],
      ['DATE_AND_TIME', 'dt'],
    ];
    for (const [name, type] of cases) expect(parseTypeName(name)).toEqual({ ok: true, type: LOG_TYPES.indexOf(type as never), bool: false });
  });

  it("a STRING keeps its length n of STRING[n]; without one it has the logger's 48", () => {
    expect(parseTypeName('STRING[32]')).toEqual({ ok: true, type: 13, bool: false, strLen: 32 });
    expect(parseTypeName('STRING[10]')).toEqual({ ok: true, type: 13, bool: false, strLen: 10 });
    expect(parseTypeName('STRING[1]')).toEqual({ ok: true, type: 13, bool: false, strLen: 1 });
    expect(parseTypeName('STRING[48]')).toEqual({ ok: true, type: 13, bool: false, strLen: 48 });
    expect(parseTypeName('STRING')).toEqual({ ok: true, type: 13, bool: false, strLen: 48 });
    expect(parseTypeName('STRING[0]')).toEqual({ ok: false, reason: 'unknown_type' });
  });

  it('the data formats of spec §3 as well, in any case and with blanks', () => {
    expect(parseTypeName(' hex32 ')).toEqual({ ok: true, type: 6, bool: false });
    expect(parseTypeName('Bin')).toEqual({ ok: true, type: 3, bool: false });
    expect(parseTypeName('realex')).toEqual({ ok: true, type: 8, bool: false });
    expect(parseTypeName('LREALEX')).toEqual({ ok: true, type: 15, bool: false });
    expect(parseTypeName('int64')).toEqual({ ok: true, type: 9, bool: false });
    expect(parseTypeName('ASCII')).toEqual({ ok: true, type: 11, bool: false });
    expect(parseTypeName('string [ 12 ]')).toEqual({ ok: true, type: 13, bool: false, strLen: 12 });
  });

  it('BOOL is a 0/1 number (uint) marked as a bit', () => {
    expect(parseTypeName('BOOL')).toEqual({ ok: true, type: 1, bool: true });
  });

  it('unknown names and strings longer than 48 characters are refused', () => {
    for (const n of ['', 'TIME', 'ARRAY [0..3] OF INT', 'DUT_Motor', 'STRING[]', 'INTX'])
      expect(parseTypeName(n)).toEqual({ ok: false, reason: 'unknown_type' });
    expect(parseTypeName('STRING[49]')).toEqual({ ok: false, reason: 'string_too_long' });
  });
});

describe('typeName', () => {
  it('writes FPWIN names where they exist, and every code reads back as itself', () => {
    expect(LOG_TYPE_CODES.map((t) => typeName(t, false))).toEqual([
      'INT',
      'UINT',
      'WORD',
      'BIN',
      'DINT',
      'UDINT',
      'DWORD',
      'REAL',
      'REALEX',
      'INT64',
      'UINT64',
      'ASCII',
      'DT',
      'STRING[48]',
      'LREAL',
      'LREALEX',
    ]);
    for (const t of LOG_TYPE_CODES) expect(parseTypeName(typeName(t, false))).toMatchObject({ ok: true, type: t });
  });

  it('a STRING is written with its length and reads back with it', () => {
    for (const n of [1, 10, 47, 48]) {
      expect(typeName(13, false, n)).toBe(`STRING[${n}]`);
      expect(parseTypeName(typeName(13, false, n))).toEqual({ ok: true, type: 13, bool: false, strLen: n });
    }
  });

  it('a bit point logged as 0/1 is a BOOL; other types of bit points keep their name', () => {
    expect(typeName(1, true)).toBe('BOOL');
    expect(typeName(0, true)).toBe('INT');
  });
});
