// Strings and payloads in PLC memory (design/services.md): two bytes a word, the first in the low
// byte (mewtocol.md §2.2, the order the logger uses for STRING). Pure: the engines, the simulator's
// `npm run plc -- request` and the tests use the same conversion.

import type { ServiceErrorName } from '../model/blocks/convention.ts';
import { MEW_ADDRESS_MAX } from '../protocol/mewtocol-commands.ts';

/** DT addresses the service control interface reaches (RD/WD: 5 digits, mewtocol-plan.ts) */
export const DT_ADDRESS_MAX = MEW_ADDRESS_MAX.data;

/** A request the unit refuses before sending anything: the block's error word gets `code`. */
export class RequestFault extends Error {
  constructor(
    readonly code: Exclude<ServiceErrorName, 'none'>,
    message: string,
  ) {
    super(message);
  }
}

export const wordsFor = (bytes: number): number => Math.ceil(bytes / 2);

export function bytesOfWords(words: readonly number[], n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = ((words[i >> 1] ?? 0) >> ((i & 1) * 8)) & 0xff;
  return out;
}

export function wordsOfBytes(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i += 2) out.push((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8));
  return out;
}

/** Throws plc_area when `bytes` from DT `addr` do not fit the addresses the interface reaches. */
export function checkArea(what: string, addr: number, bytes: number): void {
  if (!Number.isInteger(addr) || addr < 0 || addr + Math.max(1, wordsFor(bytes)) - 1 > DT_ADDRESS_MAX) {
    throw new RequestFault('plc_area', `${what}: DT${addr} + ${bytes} bytes is outside DT0-DT${DT_ADDRESS_MAX}`);
  }
}

/**
 * The bytes of a string as the PLC holds them: `len` bytes, or with `len` 0 up to the first NUL
 * within `max` bytes (`read` gives the bytes from the address). A length over `max`, or no NUL
 * within `max`, is bad_string.
 */
export async function stringAt(
  what: string,
  addr: number,
  len: number,
  max: number,
  read: (addr: number, bytes: number) => Promise<Uint8Array>,
): Promise<Uint8Array> {
  if (len > max) throw new RequestFault('bad_string', `${what}: ${len} bytes, at most ${max}`);
  if (len > 0) return read(addr, len);
  checkArea(what, addr, max);
  const all = await read(addr, max);
  const end = all.indexOf(0);
  if (end < 0) throw new RequestFault('bad_string', `${what}: no NUL byte within ${max} bytes from DT${addr}`);
  return all.subarray(0, end);
}
