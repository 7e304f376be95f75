import * as nodeFs from 'node:fs/promises';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, describe, expect, it } from 'vitest';
import { type LogRecord, recordSchema } from '../model/sections/logfile.ts';
import { SEP, text, variable } from './csv-row.ts';
import { csvFormat, formatLine, headerLines, offsetCalendar } from './csv-text.ts';
import { lastRecordAt, lineTimeParser, TAIL_BYTES } from './last-record.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const utc = offsetCalendar(() => 0);
const points: LogRecord[] = [{ ...(v.getDefaults(recordSchema) as LogRecord), name: 'v', type: 13 }];
const fmt = (sep: 'comma' | 'slash' = 'comma') => csvFormat({ header: 1, csv_separator: sep, dec_separator: 'point' }, points, { calendar: utc });
const AT = Date.UTC(2026, 10, 26, 10, 20, 30);

describe('lineTimeParser', () => {
  it('reads back the time formatLine wrote, in every separator and with texts that look like dates', () => {
    for (const sep of ['comma', 'slash'] as const) {
      const f = fmt(sep);
      const parse = lineTimeParser(f);
      for (const value of ['x', '2020/01/01,00:00:00', null]) expect(parse(formatLine({ at: AT, values: [value] }, f).replace(/\r\n$/, ''))).toBe(AT);
      expect(parse(headerLines(points, f)[0]!.replace(/\r\n$/, ''))).toBeUndefined();
    }
  });

  it('a format file layout: literal text, two-digit years, fields in another order', () => {
    const f = { ...fmt(), date: '%d.%m.%y', time: '%H.%M.%S', line: [text('#'), variable('TIME'), SEP, variable('VALUES'), SEP, variable('DATE')] };
    const parse = lineTimeParser(f);
    expect(parse('#10.20.30,7,26.11.26')).toBe(AT);
    expect(parse('10.20.30,7,26.11.26')).toBeUndefined();
    expect(parse('#10.20.30,7,26.13.26')).toBeUndefined(); // month 13
  });

  it('a layout without a year or without a time gives nothing', () => {
    expect(lineTimeParser({ ...fmt(), date: '%d.%m' })('26.11,10:20:30,7')).toBeUndefined();
    expect(lineTimeParser({ ...fmt(), line: [variable('DATE'), SEP, variable('VALUES')] })('2026/11/26,7')).toBeUndefined();
  });
});

describe('lastRecordAt', () => {
  const line = (at: number, value = '7') => formatLine({ at, values: [value] }, fmt());
  const header = headerLines(points, fmt()).join('');

  async function folder(files: Record<string, string>): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'last-record-'));
    dirs.push(dir);
    for (const [name, body] of Object.entries(files)) await writeFile(join(dir, name), body);
    return dir;
  }

  it('the last whole line of the newest file of the log file; a torn tail and other log files do not count', async () => {
    const dir = await folder({
      'tank_20261125.csv': header + line(AT - 86_400_000),
      'tank_20261126.csv': `${header + line(AT - 2000) + line(AT)}2026/11/26,10:2`, // torn by a power cut
      'tank_2_20261127.csv': header + line(AT + 86_400_000), // log file tank_2
      'tank_20261127.txt': 'no csv',
    });
    expect(await lastRecordAt(dir, 'tank', fmt(), nodeFs)).toBe(AT);
  });

  it('a newest file with only a header: the file before it (a record filed into the day before)', async () => {
    const dir = await folder({ 'tank_20261125.csv': header + line(AT), 'tank_20261126.csv': header });
    expect(await lastRecordAt(dir, 'tank', fmt(), nodeFs)).toBe(AT);
  });

  it('a long file: only its tail is read', async () => {
    const many = Array.from({ length: Math.ceil((2 * TAIL_BYTES) / line(AT).length) }, (_, i) => line(AT - 1000 * i))
      .reverse()
      .join('');
    const dir = await folder({ 'tank_20261126.csv': header + many });
    expect(await lastRecordAt(dir, 'tank', fmt(), nodeFs)).toBe(AT);
  });

  it('nothing: no folder, no file, no data line', async () => {
    expect(await lastRecordAt('/nonexistent/log', 'tank', fmt(), nodeFs)).toBeUndefined();
    expect(await lastRecordAt(await folder({}), 'tank', fmt(), nodeFs)).toBeUndefined();
    expect(await lastRecordAt(await folder({ 'tank_20261126.csv': header }), 'tank', fmt(), nodeFs)).toBeUndefined();
  });
});
