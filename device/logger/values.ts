// A data point's logged value (spec §3 Data logger: data types, endianness, scaling, value kinds
// momentary, difference and average). Decoding of the words is in values-words.ts (types and
// endianness) and values-text.ts (ascii, string, dt); this file adds bits, scaling and the state a
// difference or average point keeps between records.
import type { LogRecord } from '../model/sections/logfile.ts';
import type { LogValue } from './types.ts';
import { decodeValue } from './values-words.ts';

export { dtText, SECONDS_1970_TO_2001, STRING_CHARS_MAX } from './values-text.ts';
export { decodeValue, type Endian, encodeValue, float32Value, intRange } from './values-words.ts';

export type Scaling = Pick<LogRecord, 'enable_scal' | 'scal_plc_min' | 'scal_plc_max' | 'scal_log_min' | 'scal_log_max'>;
/** str_len: n of a STRING[n] point (48 when not given) */
export type PointDecoding = Pick<LogRecord, 'type' | 'endian'> & Partial<Pick<LogRecord, 'str_len'>> & Scaling;
export type ValueKind = LogRecord['format'];

/** X, Y, R points: bit `bit` (0–15) of the word that holds it, as 0 or 1. */
export function bitValue(words: readonly number[], bit: number): LogValue {
  const w = words[0];
  return w === undefined ? null : (w >> bit) & 1;
}

/**
 * Linear scaling (spec §3 enable_scal): scal_plc_min..scal_plc_max maps onto
 * scal_log_min..scal_log_max, values outside the PLC range extend the line (no clamping). A scaled
 * value is a number, so a scaled int64/uint64 leaves bigint exactness behind. Texts and failed
 * reads pass through.
 */
export function scaleValue(value: LogValue, s: Scaling): LogValue {
  if (!s.enable_scal || value === null || typeof value === 'string') return value;
  const span = s.scal_plc_max - s.scal_plc_min;
  if (!(span > 0)) return null; // the model refuses min >= max (logfile.ts recordRules)
  // each step is monotonic in x, so the whole map is (the property test checks it)
  return ((Number(value) - s.scal_plc_min) * (s.scal_log_max - s.scal_log_min)) / span + s.scal_log_min;
}

/**
 * The momentary value of a point from the words read for it (`null`: the read failed), scaled.
 * `bit` is set for X, Y, R points (points.ts PointSource.bit): then the type does not matter.
 */
export function pointValue(p: PointDecoding, words: readonly number[] | null, bit?: number): LogValue {
  if (words === null) return null;
  return scaleValue(bit === undefined ? decodeValue(p.type, words, p.endian, p.str_len) : bitValue(words, bit), p);
}

/**
 * Difference (spec §3): this read minus the previous one; null for the first read. int64/uint64
 * stay bigint, exact. A failed read gives null and keeps the last good value, so the difference
 * after a gap spans it and the column still adds up to the counter's growth. Plain subtraction:
 * a counter that wraps or is reset gives a negative difference.
 */
export class Difference {
  private last: number | bigint | null = null;

  next(value: LogValue): LogValue {
    if (value === null || typeof value === 'string') return null;
    const prev = this.last;
    this.last = value;
    if (prev === null) return null;
    return typeof value === 'bigint' && typeof prev === 'bigint' ? value - prev : Number(value) - Number(prev);
  }
}

/**
 * Average (spec §3): the mean of the samples fed since the last record; null when there were none
 * (failed reads are no samples). bigint samples are summed exactly; their mean is a bigint when it
 * is whole, else a number.
 */
export class Average {
  private bigSum = 0n;
  private numSum = 0;
  private count = 0;
  private numbers = false;

  add(value: LogValue): void {
    if (value === null || typeof value === 'string') return;
    if (typeof value === 'bigint') this.bigSum += value;
    else {
      this.numSum += value;
      this.numbers = true;
    }
    this.count++;
  }

  get samples(): number {
    return this.count;
  }

  /** The mean, and a fresh start for the next record. */
  take(): LogValue {
    const { bigSum, numSum, count, numbers } = this;
    this.bigSum = 0n;
    this.numSum = 0;
    this.count = 0;
    this.numbers = false;
    if (count === 0) return null;
    if (numbers) return (numSum + Number(bigSum)) / count;
    const n = BigInt(count);
    const q = bigSum / n;
    const r = bigSum % n;
    return r === 0n ? q : Number(q) + Number(r) / count;
  }
}

/** What the engine keeps per point for its value kind. */
export interface KindState {
  /** a read between two records (only an average uses it) */
  sample(value: LogValue): void;
  /** the read at a record: the value the CSV line gets */
  record(value: LogValue): LogValue;
}

/**
 * The state of one point for its value kind: momentary logs the read as it is; difference the
 * change since the previous record; average the mean of the samples since the previous record
 * and of the read at the record itself (so without samples between records it is that read).
 */
export function kindState(kind: ValueKind): KindState {
  if (kind === 'difference') {
    const d = new Difference();
    return { sample: () => undefined, record: (v) => d.next(v) };
  }
  if (kind === 'average') {
    const a = new Average();
    return { sample: (v) => a.add(v), record: (v) => (a.add(v), a.take()) };
  }
  return { sample: () => undefined, record: (v) => v };
}
