import { describe, expect, it } from 'vitest';
import { validateSection, withDefaults } from '../../device/model/section.ts';
import { pew_log } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema, STRING_TYPE } from '../../device/model/sections/logfile.ts';
import { addLogFile, addPoints, appendRecords, removeLogFile, removePoints } from './edit.ts';

const file = (f: Partial<LogFile>) => withDefaults(logFileSchema, f) as LogFile;
const rec = (r: Partial<LogRecord>) => withDefaults(recordSchema, r) as LogRecord;
const points = (n: number, extra: Partial<LogRecord> = {}) =>
  Array.from({ length: n }, (_, i) => rec({ id: i + 1, name: `p${i}`, reg_addr: String(i * 2), type: 4, ...extra }));
const ok = <T>(x: T | string): T => {
  if (typeof x === 'string') throw new Error(`refused: ${x}`);
  return x;
};
const valid = (files: LogFile[]) => validateSection(pew_log, { ...(withDefaults(pew_log.schema, {}) as object), log_def: files });

describe('log files', () => {
  it('a new one gets the next id and the first free name; at 16 it is refused', () => {
    let files = ok(addLogFile([]));
    expect(files.map((f) => [f.id, f.name, f.trigger, f.cycle, f.split, f.records])).toEqual([[1, 'log1', 1, 900, 'day', []]]);
    files = ok(addLogFile([file({ id: 1, name: 'log2' })]));
    expect(files.map((f) => [f.id, f.name])).toEqual([
      [1, 'log2'],
      [2, 'log1'],
    ]);
    let many: LogFile[] = [];
    for (let i = 0; i < 16; i++) many = ok(addLogFile(many));
    expect(many.map((f) => f.id)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(valid(many).ok).toBe(true);
    expect(addLogFile(many)).toBe('max_files');
  });

  it('deleting one renumbers the rest from 1 (spec §4)', () => {
    const files = [file({ id: 1, name: 'a' }), file({ id: 2, name: 'b' }), file({ id: 3, name: 'c' })];
    expect(removeLogFile(files, 0).map((f) => [f.id, f.name])).toEqual([
      [1, 'b'],
      [2, 'c'],
    ]);
    expect(removeLogFile(files, 2).map((f) => [f.id, f.name])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
  });
});

describe('data points', () => {
  it('adding needs a log file (spec §8 "No log file available for data points")', () => {
    expect(addPoints([], 0, 5)).toBe('no_log_file');
    expect(appendRecords([file({ name: 'a' })], 1, points(1))).toBe('no_log_file');
  });

  it('adds 1–50 at once after the last point', () => {
    const files = [file({ id: 1, name: 'a', records: points(2) }), file({ id: 2, name: 'b' })];
    const r = ok(addPoints(files, 0, 3));
    expect(r.added).toBe(3);
    expect(r.full).toBe(false);
    expect(r.files[0]!.records.map((p) => [p.id, p.name, p.reg_addr])).toEqual([
      [1, 'p0', '0'],
      [2, 'p1', '2'],
      [3, 'p2', '4'],
      [4, 'p3', '6'],
      [5, 'p4', '8'],
    ]);
    expect(r.files[1]).toBe(files[1]);
    expect(ok(addPoints(files, 1, 80)).added).toBe(50); // spec §9: add at once 50
    expect(ok(addPoints(files, 1, 0)).added).toBe(1);
    expect(valid(r.files).ok).toBe(true);
  });

  it('stops at 700 points in all log files (spec §8 "Max. number of data points reached")', () => {
    const files = [file({ id: 1, name: 'a', records: points(400) }), file({ id: 2, name: 'b', records: points(290) })];
    const r = ok(addPoints(files, 1, 50));
    expect(r.added).toBe(10);
    expect(r.full).toBe(true);
    expect(r.files[1]!.records).toHaveLength(300);
    expect(r.files[1]!.records.at(-1)!.id).toBe(300);
    expect(valid(r.files).ok).toBe(true);
    expect(addPoints(r.files, 0, 1)).toBe('max_points');
  });

  it('stops at 60 STRING and 400 difference points', () => {
    const strings = [file({ id: 1, name: 'a', records: points(59, { type: STRING_TYPE, reg_addr: '0' }) })];
    const s = ok(addPoints(strings, 0, 5));
    expect([s.added, s.full]).toEqual([1, true]);
    expect(addPoints(s.files, 0, 1)).toBe('max_points');
    const diffs = [file({ id: 1, name: 'a', records: points(400, { format: 'difference' }) })];
    expect(addPoints(diffs, 0, 1)).toBe('max_points');
    // a momentary point still fits
    expect(ok(appendRecords(diffs, 0, [rec({ name: 'm' })])).added).toBe(1);
  });

  it('imported points append with the ids following on, as far as they fit', () => {
    const files = [file({ id: 1, name: 'a', records: points(698) })];
    const r = ok(appendRecords(files, 0, [rec({ id: 9, name: 'x' }), rec({ id: 9, name: 'y' }), rec({ id: 9, name: 'z' })]));
    expect([r.added, r.full]).toEqual([2, true]);
    expect(r.files[0]!.records.slice(-2).map((p) => [p.id, p.name])).toEqual([
      [699, 'x'],
      [700, 'y'],
    ]);
    expect(ok(appendRecords(files, 0, []))).toMatchObject({ added: 0, full: false });
  });

  it('deleting points renumbers the rest from 1 (spec §4)', () => {
    const files = [file({ id: 1, name: 'a', records: points(5) })];
    const out = removePoints(files, 0, [1, 3]);
    expect(out[0]!.records.map((p) => [p.id, p.name])).toEqual([
      [1, 'p0'],
      [2, 'p2'],
      [3, 'p4'],
    ]);
    expect(removePoints(files, 4, [0])).toEqual(files);
  });
});
