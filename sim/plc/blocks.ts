// Playing the PLC side of a service control block (device/model/blocks) on a virtual PLC's
// memory: words set by their table names, texts and payloads placed where the block points, the
// block read back by names. `npm run plc -- request` and the tests use it.
import type { ControlBlock } from '../../device/model/blocks/convention.ts';
import { offsetOf, wordsByName } from '../../device/model/blocks/convention.ts';
import { bytesOfWords, wordsOfBytes } from '../../device/service-runtime/plc-text.ts';
import type { PlcMemory } from './memory.ts';

/** Writes named words of a block starting at DT `base`. */
export function setBlock(memory: PlcMemory, block: ControlBlock, base: number, values: Readonly<Record<string, number>>): void {
  for (const [name, value] of Object.entries(values)) memory.writeWords('DT', base + offsetOf(block, name), [value]);
}

export function readBlock(memory: PlcMemory, block: ControlBlock, base: number): Record<string, number> {
  return wordsByName(block, memory.readWords('DT', base, block.length));
}

/** Places text or bytes at DT `addr` (low byte first); answers the length in bytes. */
export function putBytes(memory: PlcMemory, addr: number, data: string | Uint8Array): number {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  if (bytes.length > 0) memory.writeWords('DT', addr, wordsOfBytes(bytes));
  return bytes.length;
}

export function getBytes(memory: PlcMemory, addr: number, n: number): Uint8Array {
  return n === 0 ? new Uint8Array(0) : bytesOfWords(memory.readWords('DT', addr, Math.ceil(n / 2)), n);
}
