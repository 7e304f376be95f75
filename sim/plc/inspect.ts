// Reading and writing a virtual PLC's memory by address text, for the developer's view of the
// simulator: word addresses as the configuration writes them ("DT100", "WR2", "LD5") give numbers,
// bit addresses ("R10F", "Y1", "X0A") give booleans (device/protocol/areas.ts). Bad addresses,
// accesses outside the model's memory and values of the wrong kind are InspectErrors with a message
// that can be shown as it is.
import { type BitAddress, bitIndex, isWordArea, parseBitAddress, parseWordAddress, type WordAddress } from '../../device/protocol/index.ts';
import { MemoryError, type PlcMemory } from './memory.ts';

export class InspectError extends Error {}

type Parsed = ({ kind: 'word' } & WordAddress) | ({ kind: 'bit' } & BitAddress);

function parse(text: string): Parsed {
  const t = text.trim();
  const r = isWordArea(t.slice(0, 2).toUpperCase()) ? parseWordAddress(t) : parseBitAddress(t);
  if (!r.ok) throw new InspectError(`${t}: ${r.error.message}`);
  return 'address' in r.value ? { kind: 'word', ...r.value } : { kind: 'bit', ...r.value };
}

function guard<T>(text: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof MemoryError) throw new InspectError(`${text}: ${e.message} (${e.area} ends before that on this CPU model)`);
    throw e;
  }
}

/** `count` words from a word address, or `count` bits from a bit address. */
export function readPlcMemory(memory: PlcMemory, address: string, count = 1): number[] | boolean[] {
  if (!(Number.isInteger(count) && count >= 1)) throw new InspectError(`count ${count} is not a whole number ≥ 1`);
  const a = parse(address);
  return guard(address, () => (a.kind === 'word' ? memory.readWords(a.area, a.address, count) : memory.readBits(a.area, bitIndex(a.word, a.bit), count)));
}

/** Writes numbers (-32768…65535, stored as 16 bits) from a word address, or booleans from a bit address. */
export function writePlcMemory(memory: PlcMemory, address: string, values: readonly number[] | readonly boolean[]): void {
  if (values.length === 0) throw new InspectError('no values to write');
  const a = parse(address);
  if (a.kind === 'word') {
    if (!values.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= -0x8000 && x <= 0xffff))
      throw new InspectError(`${address} is a word address: write whole numbers from -32768 to 65535`);
    guard(address, () => memory.writeWords(a.area, a.address, values as readonly number[]));
  } else {
    if (!values.every((x) => typeof x === 'boolean')) throw new InspectError(`${address} is a bit address: write true or false`);
    guard(address, () => memory.writeBits(a.area, bitIndex(a.word, a.bit), values as readonly boolean[]));
  }
}
