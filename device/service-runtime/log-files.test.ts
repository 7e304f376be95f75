import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Volume } from '../../hw/types.ts';
import { loggerFiles, newestLogFiles, newestOfEachLogFile } from './log-files.ts';

let root: string;
let volumes: Volume[];
const logDef = (...names: string[]) => ({ storage: 0 as const, log_def: names.map((name) => ({ name })) as never });

/** a file of the logger's folder, last modified `age` seconds before the others' reference time */
async function put(name: string, age: number): Promise<void> {
  const file = join(root, 'log', name);
  await writeFile(file, name);
  const t = new Date(Date.UTC(2026, 0, 1) - age * 1000);
  await utimes(file, t, t);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'log-files-'));
  await mkdir(join(root, 'log'));
  volumes = [{ id: 'internal', path: root, mounted: true, totalBytes: 1, freeBytes: 1 }];
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the data logger files a service sends', () => {
  it('a logger file and a newer script CSV in the folder: the logger file is the newest logger file', async () => {
    await put('trend_20260101.csv', 60);
    await put('script_values.csv', 1); // the script's `file script_values.csv`, written since
    expect((await newestLogFiles({ storage: 0 }, volumes, 1)).map((f) => f.name)).toEqual(['script_values.csv']);
    expect((await loggerFiles(logDef('trend'), volumes)).map((f) => [f.name, f.logFile])).toEqual([['trend_20260101.csv', 'trend']]);
  });

  it('files of log file tank_2 are not tank’s; without log files defined, any name of a log file’s counts', async () => {
    await put('tank_20260101.csv', 30);
    await put('tank_2_20260102.csv', 20);
    await put('tank_notes.csv', 10);
    expect((await loggerFiles(logDef('tank'), volumes)).map((f) => f.name)).toEqual(['tank_20260101.csv']);
    expect((await loggerFiles(logDef(), volumes)).map((f) => [f.name, f.logFile])).toEqual([
      ['tank_2_20260102.csv', 'tank_2'],
      ['tank_20260101.csv', 'tank'],
    ]);
  });

  it('the newest file of each log file, in log_def order; a log file without files is left out', async () => {
    await put('a_20260101.csv', 40);
    await put('a_20260102.csv', 30);
    await put('b_202601.csv', 50);
    expect((await newestOfEachLogFile(logDef('b', 'none', 'a'), volumes)).map((f) => f.name)).toEqual(['b_202601.csv', 'a_20260102.csv']);
  });
});
