import { afterEach, describe, expect, it, vi } from 'vitest';
import { asciiToBytes, byteHex, bytesToAscii } from './ascii.ts';

const every = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) & 0xff);
const expected = Array.from(every, (b) => String.fromCharCode(b)).join('');

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('bytes and latin1 chars', () => {
  it("make one char per byte, every value, from views at an offset and past one call's chunk", () => {
    expect(bytesToAscii(every)).toBe(expected);
    expect(bytesToAscii(every.subarray(3, 4500))).toBe(expected.slice(3, 4500));
    expect(bytesToAscii(new Uint8Array(0))).toBe('');
    const buffer = Buffer.from(every); // what node's sockets deliver
    expect(bytesToAscii(buffer)).toBe(expected);
    expect(bytesToAscii(buffer.subarray(3, 4500))).toBe(expected.slice(3, 4500));
    expect(asciiToBytes(bytesToAscii(every))).toEqual(every);
  });

  it('give the same chars where there is no Buffer (the browser)', async () => {
    vi.stubGlobal('Buffer', undefined);
    const portable = (await import('./ascii.ts')).bytesToAscii;
    expect(portable).not.toBe(bytesToAscii);
    expect(portable(every)).toBe(expected);
    expect(portable(every.subarray(3, 4500))).toBe(expected.slice(3, 4500));
  });

  it("write a byte's two upper-case hex chars", () => {
    expect([0, 0x0a, 0xab, 0xff, 0x1ff].map(byteHex)).toEqual(['00', '0A', 'AB', 'FF', 'FF']);
  });
});
