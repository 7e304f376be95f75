// The register watch (docs/monitor.md "Register watch"): each user's own list of PLC addresses,
// described as the data logger describes a point (interface, station, area, address, type from the
// logger's value codes, string length, word order, decimals), so a logger variable imports as it is.
// One definition for the daemon, which checks every list and write against it, and the console.
import * as v from 'valibot';
import { int, list, obj, text } from './fields.ts';
import { type Issue, msg } from './issues.ts';
import { addressRules, recordSchema } from './sections/logfile.ts';

/** entries one user's list holds at most */
export const WATCH_MAX = 32;
/** the display formats of a value: as its type shows it, or its words in hex or binary */
export const WATCH_FORMATS = ['value', 'hex', 'bin'] as const;

const point = recordSchema.entries;
export const watchEntrySchema = obj({
  name: text(70, ''),
  if: point.if,
  plc_addr: point.plc_addr,
  area: point.area,
  reg_addr: point.reg_addr,
  type: point.type,
  str_len: point.str_len,
  endian: point.endian,
  decimal: point.decimal,
  format: v.optional(v.picklist(WATCH_FORMATS, msg('invalid_value', { allowed: WATCH_FORMATS.join(', ') })), 'value'),
});
export type WatchEntry = v.InferOutput<typeof watchEntrySchema>;

export const watchListSchema = obj({ entries: list(watchEntrySchema, WATCH_MAX) });
export type WatchList = v.InferOutput<typeof watchListSchema>;

/** Each entry's address in its area's range (spec §9): refused with the range. */
export const watchListRules = (l: WatchList): Issue[] => l.entries.flatMap((e, i) => addressRules(e, `entries.${i}`));

/** A write of the administrator: the entry of the own list by its index, the value as typed. */
export const watchWriteRequest = obj({ index: int(0, WATCH_MAX - 1, 0), value: text(100, '', v.nonEmpty<string, string>(msg('required'))) });
export type WatchWriteRequest = v.InferOutput<typeof watchWriteRequest>;

const reading = v.object({
  /** number, the text of a text type, a 64-bit integer as decimal text, a float that is no finite number as `NaN`, `Infinity` or `-Infinity`; absent when the read failed */
  value: v.optional(v.union([v.number(), v.string()])),
  /** the words read (for hex and binary display) */
  words: v.optional(v.array(v.number())),
  /** why it could not be read: a PLC failure's reason and code */
  failure: v.optional(v.object({ reason: v.string(), code: v.optional(v.number()) })),
});
export const watchValuesSchema = v.object({ at: v.number(), values: v.array(reading) });
export type WatchValues = v.InferOutput<typeof watchValuesSchema>;
