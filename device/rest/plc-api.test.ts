// The REST port's path parsing (device/rest/plc-api.ts, http-files.ts): interfaces, areas and addresses of spec §3/§5/§9, file names (security.md DL-1).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { fileNameOf } from './http-files.ts';
import { interfaceOf, targetOf } from './plc-api.ts';

const code = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof ApiError ? [e.status, e.code] : e;
  }
  return 'no error';
};

describe('REST paths', () => {
  it('names an interface by id or name (spec §3 ids 0, 3, 1, 4, 5)', () => {
    expect(['0', '3', '1', '4', '5', 'COM1', 'com2', 'Com3', 'INTERNAL', 'com4'].map(interfaceOf)).toEqual([0, 3, 1, 4, 5, 0, 3, 1, 4, 5]);
    expect(['2', '6', '00', 'COM5', '', '-1', '1.0'].map(interfaceOf)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('checks word addresses against the spec §9 limits at 0, max and max+1', () => {
    expect(targetOf('dt', '0')).toEqual({ kind: 'words', area: 'DT', start: 0 });
    expect(targetOf('DT', '999424')).toEqual({ kind: 'words', area: 'DT', start: 999424 });
    expect(code(() => targetOf('DT', '999425'))).toEqual([400, 'address_out_of_range']);
    expect(targetOf('WX', '512')).toMatchObject({ start: 512 });
    expect(code(() => targetOf('WX', '513'))).toEqual([400, 'address_out_of_range']);
    expect(code(() => targetOf('DT', '-1'))).toEqual([400, 'invalid_characters']);
    expect(code(() => targetOf('DT', '1e3'))).toEqual([400, 'invalid_characters']);
    expect(code(() => targetOf('XX', '1'))).toEqual([400, 'invalid_value']);
  });

  it('reads bit addresses in the §5 form: word digits plus one hex digit', () => {
    expect(targetOf('R', '10F')).toEqual({ kind: 'bits', area: 'R', index: 175, word: 10, bit: 15 });
    expect(targetOf('y', '5')).toEqual({ kind: 'bits', area: 'Y', index: 5, word: 0, bit: 5 });
    expect(code(() => targetOf('R', '2049F'))).toEqual([400, 'invalid_bit_address']); // more than 3 word digits
    expect(code(() => targetOf('Y', '513F'))).toEqual([400, 'address_out_of_range']); // WY 512
    expect(code(() => targetOf('R', 'G'))).toEqual([400, 'invalid_bit_address']);
  });
});

describe('HTTP file names', () => {
  it('takes one plain uploaded-file name; `/` is index.html', () => {
    expect(fileNameOf('/')).toBe('index.html');
    expect(fileNameOf('/app-1.2_min.js')).toBe('app-1.2_min.js');
    expect(fileNameOf('/a%20b.html')).toBeUndefined();
    for (const bad of ['/..', '/.env', '/a/b', '/..%2fetc%2fpasswd', '/%2e%2e', '/a%00', '/%E0%A4%A', `/${'a'.repeat(65)}`])
      expect(fileNameOf(bad), bad).toBeUndefined();
  });
});
