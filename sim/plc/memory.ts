// The memory of a virtual PLC: word areas sized for its CPU model, the bit areas X, Y, R, L as the
// bits of WX, WY, WR, WL (bit index = word × 16 + bit, mewtocol.md §2.1), and the RUN/PROG mode.
// Out-of-range accesses throw a MemoryError that the protocol responders turn into the protocol's
// error answer (MEWTOCOL address error, Modbus exception 02).
import { type AreaSizes, CPU_PROFILES, type CpuModel, type CpuProfile } from './profiles.ts';

export type WordAreaName = keyof AreaSizes;
export type BitAreaName = 'X' | 'Y' | 'R' | 'L';
const WORDS_OF: Record<BitAreaName, WordAreaName> = { X: 'WX', Y: 'WY', R: 'WR', L: 'WL' };

export class MemoryError extends Error {
  constructor(
    readonly area: string,
    readonly address: number,
    readonly count: number,
  ) {
    super(`${area}${address}${count > 1 ? `..${address + count - 1}` : ''} is outside the PLC's memory`);
  }
}

export class PlcMemory {
  readonly profile: CpuProfile;
  private readonly words: Record<WordAreaName, Uint16Array>;
  running = true;
  /** writes since start, for the developer's view of the simulator */
  writes = 0;

  constructor(model: CpuModel) {
    this.profile = CPU_PROFILES[model];
    const a = this.profile.areas;
    this.words = {
      DT: new Uint16Array(a.DT),
      FL: new Uint16Array(a.FL),
      LD: new Uint16Array(a.LD),
      WR: new Uint16Array(a.WR),
      WL: new Uint16Array(a.WL),
      WY: new Uint16Array(a.WY),
      WX: new Uint16Array(a.WX),
    };
  }

  size(area: WordAreaName): number {
    return this.words[area].length;
  }

  private range(area: WordAreaName, start: number, count: number): Uint16Array {
    const mem = this.words[area];
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 1 || start + count > mem.length) throw new MemoryError(area, start, count);
    return mem;
  }

  readWords(area: WordAreaName, start: number, count: number): number[] {
    return Array.from(this.range(area, start, count).subarray(start, start + count));
  }

  writeWords(area: WordAreaName, start: number, values: readonly number[]): void {
    const mem = this.range(area, start, values.length);
    values.forEach((v, i) => {
      mem[start + i] = v & 0xffff;
    });
    this.writes++;
  }

  readBits(area: BitAreaName, bitIndex: number, count: number): boolean[] {
    const words = this.words[WORDS_OF[area]];
    if (bitIndex < 0 || count < 1 || bitIndex + count > words.length * 16) throw new MemoryError(area, bitIndex, count);
    return Array.from({ length: count }, (_, i) => ((words[(bitIndex + i) >> 4]! >> ((bitIndex + i) & 15)) & 1) === 1);
  }

  writeBits(area: BitAreaName, bitIndex: number, values: readonly boolean[]): void {
    const words = this.words[WORDS_OF[area]];
    if (bitIndex < 0 || values.length < 1 || bitIndex + values.length > words.length * 16) throw new MemoryError(area, bitIndex, values.length);
    values.forEach((on, i) => {
      const b = bitIndex + i;
      const mask = 1 << (b & 15);
      words[b >> 4] = on ? words[b >> 4]! | mask : words[b >> 4]! & ~mask;
    });
    this.writes++;
  }
}
