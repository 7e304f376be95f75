// How common addresses and information object addresses are written. On the wire both are
// little-endian numbers (CA 2 octets, IOA 3 octets); with `asdu_structured` (spec §9: structured
// 255) the console and the layout tables write them as octets of 0-255, most significant first:
// CA 1.2 is 0x0102, IOA 1.2.3 is 0x010203.

import { check, fail, isInt, ok, type Result } from '../result.ts';

function octets(n: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => (n >> (8 * (count - 1 - i))) & 0xff);
}

export function formatAddress(n: number, count: 2 | 3, structured: boolean): string {
  check(isInt(n, 0, 2 ** (8 * count) - 1), `address ${n} does not fit ${count} octets`);
  return structured ? octets(n, count).join('.') : String(n);
}

/** Reads "258" or, structured, "1.2" (CA) / "0.1.2" (IOA); every part must be a whole number in range. */
export function parseAddress(text: string, count: 2 | 3, structured: boolean): Result<number> {
  const parts = structured ? text.trim().split('.') : [text.trim()];
  if (parts.length !== (structured ? count : 1) || parts.some((p) => !/^\d{1,8}$/.test(p)))
    return fail('bad_address', structured ? `"${text}": ${count} numbers 0-255 separated by dots expected` : `"${text}": a number expected`);
  const nums = parts.map(Number);
  if (structured) {
    if (nums.some((x) => x > 255)) return fail('bad_address', `"${text}": each part 0-255`);
    return ok(nums.reduce((a, x) => a * 256 + x, 0));
  }
  const n = nums[0] as number;
  return n <= 2 ** (8 * count) - 1 ? ok(n) : fail('bad_address', `"${text}": at most ${2 ** (8 * count) - 1}`);
}
