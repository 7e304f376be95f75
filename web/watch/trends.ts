// The trend of each watched entry: the numbers read in the last 5 minutes, kept by the page (not the
// unit), by what the entry reads (its key: interface, station, address and decoding), so a list saved
// again keeps the trend of an entry that stayed and drops the others. A failed read is a gap.
import type { WatchEntry } from '../../device/model/watch.ts';

export const TREND_MS = 5 * 60_000;

export interface Trend {
  /** the daemon's times of the reads (ms), oldest first */
  at: number[];
  /** the value of each read; null where it failed */
  values: (number | null)[];
}

export const trendKey = (e: Pick<WatchEntry, 'if' | 'plc_addr' | 'area' | 'reg_addr' | 'type' | 'str_len' | 'endian'>): string =>
  [e.if, e.plc_addr, e.area, e.reg_addr, e.type, e.str_len, e.endian].join('/');

export class Trends {
  private readonly trends = new Map<string, Trend>();

  /** One read of `key` at `at`; a second read of the same moment (the same address listed twice) replaces the first. */
  add(key: string, at: number, value: number | null): void {
    let t = this.trends.get(key);
    if (!t) this.trends.set(key, (t = { at: [], values: [] }));
    if (t.at.at(-1) === at) t.values[t.values.length - 1] = value;
    else {
      t.at.push(at);
      t.values.push(value);
    }
    let old = 0;
    while (old < t.at.length && t.at[old]! < at - TREND_MS) old++;
    if (old > 0) {
      t.at.splice(0, old);
      t.values.splice(0, old);
    }
  }

  get(key: string): Trend | undefined {
    return this.trends.get(key);
  }

  /** Keeps the trends of `keys` only. */
  keep(keys: readonly string[]): void {
    for (const k of [...this.trends.keys()]) if (!keys.includes(k)) this.trends.delete(k);
  }
}

/** The numbers of a trend (its gaps left out). */
export const numbersIn = (t: Trend | undefined): number => t?.values.filter((v) => v !== null).length ?? 0;
