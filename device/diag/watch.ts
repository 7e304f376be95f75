// The register watch (docs/monitor.md "Register watch"): each user's list of PLC addresses, kept in
// the data folder (`watch.json`, written atomically), read through the links on the console's
// update tick, and the administrator's write of one entry. An entry resolves as a data logger point
// does (logger/points.ts) and its value decodes as the logger decodes it (logger/values.ts), so a
// watch shows what the logger would record. A write is checked against the entry's type before
// anything goes to the PLC: a value the type cannot hold, text for a number, the inputs (X) are
// refused and nothing is written.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../hw/atomic-file.ts';
import { PlcError } from '../com/dialog.ts';
import type { Links } from '../com/links.ts';
import { pointSource } from '../logger/points.ts';
import type { LogFile, LogRecord, PointSource } from '../logger/types.ts';
import { encodeValue, intRange, pointValue } from '../logger/values.ts';
import type { Issue } from '../model/issues.ts';
import { LOG_AREAS, type LogType, STRING_TYPE } from '../model/sections/logfile.ts';
import type { WatchEntry, WatchValues } from '../model/watch.ts';

const FILE = 'watch.json';
const F32_MAX = 3.4028234663852886e38;
const FLOAT_TYPES = new Set([7, 8]); // real, realex: 32-bit floats
const WIDE_INT_TYPES = new Set([9, 10]); // int64, uint64: exact as bigint
const TEXT_TYPES = new Set([11, 12, 13]); // ascii, dt, string
const ASCII_TYPE = 11;

/** Each user's list, by user name; read once, written whole on every change. */
export class WatchLists {
  private lists: Record<string, WatchEntry[]> | undefined;

  constructor(private readonly dataDir: string) {}

  private async load(): Promise<Record<string, WatchEntry[]>> {
    if (this.lists) return this.lists;
    try {
      const parsed = JSON.parse(await readFile(join(this.dataDir, FILE), 'utf8')) as { lists?: Record<string, WatchEntry[]> };
      this.lists = parsed.lists && typeof parsed.lists === 'object' ? parsed.lists : {};
    } catch {
      this.lists = {}; // none saved yet (or unreadable: every list starts empty, nothing else depends on it)
    }
    return this.lists;
  }

  async get(user: string): Promise<WatchEntry[]> {
    return (await this.load())[user] ?? [];
  }

  /** Writes every list whole (atomically), then keeps them. */
  private async write(lists: Record<string, WatchEntry[]>): Promise<void> {
    await writeFileAtomic(join(this.dataDir, FILE), `${JSON.stringify({ version: 1, lists }, null, 1)}\n`);
    this.lists = lists;
  }

  async set(user: string, entries: WatchEntry[]): Promise<void> {
    await this.write({ ...(await this.load()), [user]: entries });
  }

  /** The factory reset: every list goes. */
  async clear(): Promise<void> {
    await this.write({});
  }

  /** A user deleted: the list goes with them. */
  async drop(user: string): Promise<void> {
    const lists = await this.load();
    if (!(user in lists)) return;
    const { [user]: _, ...rest } = lists;
    await this.write(rest);
  }
}

/** Where an entry lives in the PLC: the logger's resolution of a point on the entry's interface. */
export function watchSource(e: WatchEntry): PointSource {
  const file = { interface: e.if, plc_addr: 0 } as LogFile;
  const r = pointSource(file, e as unknown as LogRecord, 'watch');
  // the list was checked against the model's address rules when it was saved
  if (!r.ok) throw new PlcError('bad_reply', r.error.message);
  return r.value;
}

const NO_SCALING = { enable_scal: false, scal_plc_min: 0, scal_plc_max: 1, scal_log_min: 0, scal_log_max: 1 };

const failure = (e: unknown): { reason: string; code?: number } =>
  e instanceof PlcError ? { reason: e.reason, ...(e.code !== undefined ? { code: e.code } : {}) } : { reason: 'link_down' };

/**
 * A decoded value as JSON carries it: a 64-bit integer as its decimal text (exact), a float that is
 * no finite number (a REAL's NaN or infinity bit pattern) as `NaN`, `Infinity` or `-Infinity`,
 * which JSON would otherwise turn into null.
 */
const jsonValue = (v: number | bigint | string): number | string => (typeof v === 'bigint' || (typeof v === 'number' && !Number.isFinite(v)) ? String(v) : v);

/** Reads every entry (each its own transaction, in order) and decodes it as the logger would. */
export async function readWatch(links: Links, entries: readonly WatchEntry[], user: string): Promise<WatchValues> {
  const values: WatchValues['values'] = [];
  for (const e of entries) {
    try {
      const src = watchSource(e);
      const link = links.get(src.interfaceId);
      if (!link) throw new PlcError('link_down', 'The interface is not enabled');
      const words = await link.readWords(src.area, src.word, src.words, `watch:${user}`, src.station);
      const v = pointValue({ ...e, ...NO_SCALING }, words, src.bit);
      values.push({ ...(v === null ? {} : { value: jsonValue(v) }), words });
    } catch (err) {
      values.push({ failure: failure(err) });
    }
  }
  return { at: Date.now(), values };
}

/** Why a typed value cannot be written to the entry (an issue code with its params), or the words / bit to write. */
export function watchWords(e: WatchEntry, text: string): { words: number[] } | { bit: boolean } | { problem: Omit<Issue, 'path'> } {
  const area = LOG_AREAS[e.area];
  if (area === 'X') return { problem: { code: 'input_not_writable', params: { entry: `X${e.reg_addr}` } } };
  const t = text.trim();
  if (area === 'Y' || area === 'R') {
    if (t === '1') return { bit: true };
    if (t === '0') return { bit: false };
    return { problem: { code: 'invalid_value', params: { allowed: ['0', '1'] } } };
  }
  let value: number | bigint | string = text;
  const range = intRange(e.type as LogType);
  if (range) {
    // hex and bin types take 0x… and 0b… as well as decimals
    if (!/^-?\d{1,20}$/.test(t) && !/^0[xX][0-9a-fA-F]{1,16}$/.test(t) && !/^0[bB][01]{1,64}$/.test(t)) return { problem: { code: 'not_integer' } };
    const n = t.startsWith('-') ? -BigInt(t.slice(1)) : BigInt(t);
    if (n < range[0] || n > range[1]) return { problem: { code: 'out_of_range', params: { min: range[0].toString(), max: range[1].toString() } } };
    value = WIDE_INT_TYPES.has(e.type) ? n : Number(n);
  } else if (!TEXT_TYPES.has(e.type)) {
    value = t === '' ? Number.NaN : Number(t);
    if (!Number.isFinite(value)) return { problem: { code: 'type', params: { expected: 'number' } } };
    if (FLOAT_TYPES.has(e.type) && Math.abs(value) > F32_MAX) return { problem: { code: 'out_of_range', params: { min: -F32_MAX, max: F32_MAX } } };
  } else if (e.type === STRING_TYPE && text.length > e.str_len) return { problem: { code: 'too_long', params: { max: e.str_len } } };
  else if (e.type === ASCII_TYPE && text.length > 2) return { problem: { code: 'too_long', params: { max: 2 } } };
  try {
    return { words: encodeValue(e.type as LogType, value, e.endian, e.str_len) };
  } catch {
    // what the type's own encoding refuses (a date and time that is no date, characters beyond ASCII)
    return { problem: { code: 'invalid_value', params: {} } };
  }
}
