// Strings and payloads in PLC memory (plc-text.ts): byte order, pointer bounds, NUL-terminated strings.
import { describe, expect, it } from 'vitest';
import { bytesOfWords, checkArea, RequestFault, stringAt, wordsOfBytes } from './plc-text.ts';

const memory =
  (text: string, at = 0) =>
  async (addr: number, n: number) => {
    const bytes = new Uint8Array(1000);
    bytes.set(new TextEncoder().encode(text), at * 2);
    return bytes.subarray(addr * 2, addr * 2 + n);
  };

describe('PLC text', () => {
  it('puts the first byte in the low byte of a word, both ways', () => {
    expect(wordsOfBytes(new TextEncoder().encode('abc'))).toEqual([0x6261, 0x63]);
    expect(new TextDecoder().decode(bytesOfWords([0x6261, 0x63], 3))).toBe('abc');
  });

  it('a pointer beyond DT99999 is plc_area', () => {
    expect(() => checkArea('topic', 99_999, 2)).not.toThrow();
    expect(() => checkArea('topic', 99_999, 3)).toThrow(RequestFault);
    try {
      checkArea('topic', 99_990, 100);
    } catch (e) {
      expect((e as RequestFault).code).toBe('plc_area');
    }
  });

  it('reads a string by its length, or up to its NUL; too long or without NUL is bad_string', async () => {
    expect(new TextDecoder().decode(await stringAt('t', 0, 5, 16, memory('plant/tank')))).toBe('plant');
    expect(new TextDecoder().decode(await stringAt('t', 0, 0, 16, memory('plant/tank')))).toBe('plant/tank');
    await expect(stringAt('t', 0, 17, 16, memory('x'))).rejects.toMatchObject({ code: 'bad_string' });
    await expect(stringAt('t', 0, 0, 4, memory('plant/tank'))).rejects.toMatchObject({ code: 'bad_string' });
  });
});
