// The script's CSV files on a volume (csv.ts): file names with the data logger's date and time
// placeholders, and a file whose header is not the append's kept as it was under a numbered name
// while a new file of the script's name begins.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Volume } from '../../hw/types.ts';
import { offsetCalendar } from '../logger/csv-calendar.ts';
import { createLogger } from '../system/log.ts';
import { holdsOtherHeader, ScriptCsv, scriptFileName } from './csv.ts';

const UTC = offsetCalendar(() => 0);
const T0 = Date.UTC(2026, 10, 21, 23, 59, 0);

let base: string;
let dir: string;
const volumes = async (): Promise<Volume[]> => [{ id: 'internal', path: base, mounted: true, totalBytes: 1e9, freeBytes: 1e9 }];
const text = (name: string) => readFile(join(dir, name), 'utf8');
const names = async () => (await readdir(dir)).sort();

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'script-csv-'));
  dir = join(base, 'log');
  await mkdir(dir);
});
afterEach(() => rm(base, { recursive: true, force: true }));

describe('file names with placeholders', () => {
  it("fills in the time of each line, so a line after midnight goes into the next day's file", async () => {
    expect(scriptFileName('audit_%Y%m%d.csv', T0, UTC)).toBe('audit_20261121.csv');
    expect(scriptFileName('a_%y%m%d_%H%M%S_w%W.csv', T0, UTC)).toBe('a_261121_235900_w47.csv');
    const csv = new ScriptCsv(volumes, 'internal', UTC);
    expect((await csv.append('audit_%Y%m%d.csv', ['v'], T0, [1])).state).toBe('ok');
    expect((await csv.append('audit_%Y%m%d.csv', ['v'], T0 + 60_000, [2])).state).toBe('ok');
    await csv.close();
    expect(await names()).toEqual(['audit_20261121.csv', 'audit_20261122.csv']);
    expect(await text('audit_20261121.csv')).toBe('date;time;v\r\n2026-11-21;23:59:00;1\r\n');
    expect(await text('audit_20261122.csv')).toBe('date;time;v\r\n2026-11-22;00:00:00;2\r\n');
  });
});

describe('a header that changed', () => {
  it('keeps the old file as it was under a numbered name and begins a new one', async () => {
    const log = createLogger({ clock: { now: () => T0 }, sink: null });
    const before = new ScriptCsv(volumes, 'internal', UTC, log);
    await before.append('audit.csv', ['a'], T0, [1]);
    await before.append('audit.csv', ['a'], T0 + 1000, [2]);
    await before.close();
    const old = await text('audit.csv');

    // the script was edited: the same file, another column (a new run, as after a save)
    const after = new ScriptCsv(volumes, 'internal', UTC, log);
    expect((await after.append('audit.csv', ['a', 'b'], T0 + 2000, [3, 4])).state).toBe('ok');
    expect((await after.append('audit.csv', ['a', 'b'], T0 + 3000, [5, 6])).state).toBe('ok');
    expect(await names()).toEqual(['audit.csv', 'audit_1.csv']);
    expect(await text('audit_1.csv')).toBe(old);
    expect(await text('audit.csv')).toBe('date;time;a;b\r\n2026-11-21;23:59:02;3;4\r\n2026-11-21;23:59:03;5;6\r\n');
    expect(
      log
        .recent()
        .filter((e) => e.msg.startsWith('script: the file holds another header'))
        .map((e) => e.fields),
    ).toEqual([{ file: 'audit.csv', kept: 'audit_1.csv', header: 'date;time;a;b' }]);

    // two appends of other names into one file: each change keeps what was there
    await after.append('audit.csv', ['c'], T0 + 4000, [7]);
    await after.close();
    expect(await names()).toEqual(['audit.csv', 'audit_1.csv', 'audit_2.csv']);
    expect(await text('audit_2.csv')).toBe('date;time;a;b\r\n2026-11-21;23:59:02;3;4\r\n2026-11-21;23:59:03;5;6\r\n');
    expect(await text('audit.csv')).toBe('date;time;c\r\n2026-11-21;23:59:04;7\r\n');
  });

  it('the same header goes on in the same file, also after a restart; a header torn by a power cut is no other header', async () => {
    const a = new ScriptCsv(volumes, 'internal', UTC);
    await a.append('same.csv', ['v'], T0, [1]);
    await a.close();
    const b = new ScriptCsv(volumes, 'internal', UTC);
    await b.append('same.csv', ['v'], T0 + 1000, [2]);
    await writeFile(join(dir, 'torn.csv'), 'date;ti');
    await b.append('torn.csv', ['v'], T0 + 2000, [3]);
    await b.close();
    expect(await names()).toEqual(['same.csv', 'torn.csv']);
    expect(await text('same.csv')).toBe('date;time;v\r\n2026-11-21;23:59:00;1\r\n2026-11-21;23:59:01;2\r\n');
    expect(await text('torn.csv')).toBe('date;time;v\r\n2026-11-21;23:59:02;3\r\n');
  });

  it('holdsOtherHeader: neither the header nor its start', async () => {
    const put = async (content: string) => (await writeFile(join(dir, 'h.csv'), content), holdsOtherHeader(join(dir, 'h.csv'), 'date;time;a'));
    expect(await holdsOtherHeader(join(dir, 'none.csv'), 'date;time;a')).toBe(false);
    expect(await put('')).toBe(false);
    expect(await put('date;time;a\r\n1;2;3\r\n')).toBe(false);
    expect(await put('date;time;a;b\r\n')).toBe(true);
    expect(await put('date;time;b\r\n')).toBe(true);
    expect(await put('date;time;a\r')).toBe(false); // torn
    expect(await put('date;time;a\n')).toBe(true); // not the script's line end: not its header
  });
});
