// Where each data point of the logger lives in the PLC (spec §3 Data logger, §5 bit addresses,
// §9 Logger): a pew_log record (area code, reg_addr, type, interface, station) resolved into the
// word area, first word, word count and bit the read planner and the value decoder work on.
//
// - Areas (spec §3 log areas DT1, FL2, LD3, X4, Y5, R6): DT, FL and LD are word areas; X, Y and R
//   points are one bit of a WX, WY or WR word, addressed as in spec §5: the last character of
//   reg_addr is the bit (hex digit), the digits before it the word ("10A" = word 10, bit 10).
// - Words: typeWords of the record's type and string length (logfile.ts); a bit point occupies the one word that
//   holds its bit, whatever its type (the model checks bit addresses against the word limit only).
// - Station: the record's plc_addr when not 0; otherwise the log file's plc_addr when the record
//   is on the log file's interface (the file's station belongs to that interface); else 0, the
//   link's own station.

import { LOG_AREAS, typeWords } from '../model/sections/logfile.ts';
import { inArea, parseBitOffset } from '../protocol/areas.ts';
import { fail, ok, type Result } from '../protocol/result.ts';
import type { Log, LogFile, LogRecord, LogWordArea, PointSource } from './types.ts';

/** The word view of each bit area (the same as protocol/areas.ts BIT_AREA_WORDS; a test compares them). */
export const BIT_WORD_AREAS = { X: 'WX', Y: 'WY', R: 'WR' } as const satisfies Record<'X' | 'Y' | 'R', LogWordArea>;

/** The key of a data point: `<log file index>.<record index>` in pew_log.log_def (types.ts PointSource). */
export const pointKey = (fileIndex: number, recordIndex: number): string => `${fileIndex}.${recordIndex}`;

/** The station a record is read from (see the head of this file); 0 = the link's own. */
export function pointStation(file: LogFile, record: LogRecord): number {
  if (record.plc_addr !== 0) return record.plc_addr;
  return record.if === file.interface ? file.plc_addr : 0;
}

/**
 * Resolves one record of `file` into its PointSource. Saved settings have passed the model's rules
 * (logfile.ts addressRules), so a failure means settings that never went through them; it carries
 * the model's issue codes (`invalid_bit_address`, `invalid_characters`, `address_out_of_range`).
 */
export function pointSource(file: LogFile, record: LogRecord, key: string): Result<PointSource> {
  const base = { key, interfaceId: record.if, station: pointStation(file, record) };
  const area = LOG_AREAS[record.area];
  if (area === 'X' || area === 'Y' || area === 'R') {
    const offset = parseBitOffset(record.reg_addr);
    if (!offset.ok) return offset;
    const wordArea = BIT_WORD_AREAS[area];
    if (!inArea(wordArea, offset.value.word)) return fail('address_out_of_range', `${area}${record.reg_addr}: word beyond the ${wordArea} area`);
    return ok({ ...base, area: wordArea, word: offset.value.word, words: 1, bit: offset.value.bit });
  }
  if (!/^\d{1,7}$/.test(record.reg_addr)) return fail('invalid_characters', `${area}${record.reg_addr}: the address must be decimal digits`);
  const word = Number(record.reg_addr);
  const words = typeWords(record.type, record.str_len);
  if (!inArea(area, word, words)) return fail('address_out_of_range', `${area}${word}: ${words} words run past the ${area} area`);
  return ok({ ...base, area, word, words });
}

/** A record that did not resolve, by its key. */
export interface PointProblem {
  key: string;
  code: string;
  message: string;
}

export interface ResolvedPoints {
  /** every resolvable point, in log file order and record order within a file */
  points: PointSource[];
  problems: PointProblem[];
}

/** The points of one log file (`fileIndex` is its index in log_def), in record order. */
export function filePoints(file: LogFile, fileIndex: number): ResolvedPoints {
  const out: ResolvedPoints = { points: [], problems: [] };
  file.records.forEach((record, j) => {
    const key = pointKey(fileIndex, j);
    const r = pointSource(file, record, key);
    if (r.ok) out.points.push(r.value);
    else out.problems.push({ key, code: r.error.code, message: r.error.message });
  });
  return out;
}

/** The points of every log file of pew_log, in log_def order and record order. */
export function logPoints(log: Pick<Log, 'log_def'>): ResolvedPoints {
  const all = log.log_def.map(filePoints);
  return { points: all.flatMap((f) => f.points), problems: all.flatMap((f) => f.problems) };
}
