// The data logger's files end to end (the FILES and CSV format contracts; spec §3 file split,
// midnight_to_daybefore, header modes; §4 retention at 4:00): a daemon on virtual FP-XH PLCs behind
// a socat pseudo-terminal, its clock a FakeClock the test sets. The split of every kind across a
// new year, the midnight rule on and off, header modes 0, 2, 3 and 4 (a format file in
// `<data>/logcfg/`), a bad format file reported as an error status, and the 4:00 deletion of the
// files beyond file_max.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Log } from '../../device/model/sections/log.ts';
import type { LogFile } from '../../device/model/sections/logfile.ts';
import { FakeClock } from '../support/daemon.ts';
import {
  crlf,
  csvFiles,
  FAST_POLL_MS,
  fastSettleMs,
  fileIs,
  local,
  logDir,
  logFile,
  type PlcLine,
  pause,
  type Rig,
  record,
  saveLog,
  startLine,
  startRig,
  text,
  until,
} from './logger-rig.ts';

const clock = new FakeClock(local(2026, 12, 31, 23, 59, 0));
let line: PlcLine;
let rig: Rig;

beforeAll(async () => {
  line = await startLine([1, 2]);
  rig = await startRig(line, { clock, pollMs: FAST_POLL_MS }); // a wake four times a second: each step waits for one
  line.plcs.get(1)!.memory.writeWords('DT', 500, [7]);
  line.plcs.get(1)!.memory.writeWords('WR', 10, [1 << 10]);
  line.plcs.get(2)!.memory.writeWords('DT', 100, [42]);
});
afterAll(async () => {
  await rig?.stop();
  await line?.close();
});

const v = record({ id: 1, name: 'v', area: 1, reg_addr: '500', type: 1 });
const row = (date: string, time: string) => `${date},${time},7`;
const H = 'Date,Time,v';
const files = (over: Partial<LogFile>[], log: Partial<Log> = {}) =>
  saveLog(rig, { header: 1, ...log, log_def: over.map((f, i) => logFile({ id: i + 1, records: [v], ...f })) });

describe('file split and midnight_to_daybefore', () => {
  it('each split names its files by local period; a record at exactly 00:00:00 closes the period before', async () => {
    const splits = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;
    await files(
      splits.map((split) => ({ name: `s_${split}`, split, trigger: 1, cycle: 30 })),
      { midnight_to_daybefore: true },
    );
    // records at 23:59:00, 23:59:30, 00:00:00 (new year), 00:00:30
    const old = [row('2026/12/31', '23:59:00'), row('2026/12/31', '23:59:30'), row('2027/01/01', '00:00:00')];
    const next = [row('2027/01/01', '00:00:30')];
    const recorded = (n: number) => until(() => rig.d.ctx.logger.status().files.every((f) => f.records === n), 15_000, `record ${n}`);
    await recorded(1);
    for (let n = 2; n <= 4; n++) {
      clock.advance(30_000);
      await recorded(n);
    }
    const want: Record<string, string[]> = {
      's_minute_20261231_2359.csv': old,
      's_minute_20270101_0000.csv': next,
      's_hour_20261231_23.csv': old,
      's_hour_20270101_00.csv': next,
      's_day_20261231.csv': old,
      's_day_20270101.csv': next,
      's_week_2026-W53.csv': [...old, ...next], // 31 Dec 2026 and 1 Jan 2027 are both in ISO week 53 of 2026
      's_month_202612.csv': old,
      's_month_202701.csv': next,
      's_year_2026.csv': old,
      's_year_2027.csv': next,
    };
    for (const [name, lines] of Object.entries(want)) await fileIs(rig, name, crlf([H, ...lines]));
    expect(await csvFiles(rig)).toEqual(Object.keys(want).sort());
  });

  it('without midnight_to_daybefore the 00:00:00 record opens the new day', async () => {
    clock.t = local(2027, 1, 1, 23, 59, 30);
    await files([{ name: 'nomid', split: 'day', trigger: 1, cycle: 30 }], { midnight_to_daybefore: false });
    await fileIs(rig, 'nomid_20270101.csv', crlf([H, row('2027/01/01', '23:59:30')]));
    clock.advance(30_000);
    await fileIs(rig, 'nomid_20270102.csv', crlf([H, row('2027/01/02', '00:00:00')]));
    expect(await text(rig, 'nomid_20270101.csv')).toBe(crlf([H, row('2027/01/01', '23:59:30')]));
  });
});

describe('header modes', () => {
  const points = [
    { ...v, name: 'level', dim: 'l' },
    record({ id: 2, name: 'pump', area: 6, reg_addr: '10A' }),
    record({ id: 3, name: 'remote', area: 1, reg_addr: '100', plc_addr: 2 }),
    record({ id: 4, name: 'bad', area: 1, reg_addr: '0', if: 0 }), // COM1 is off: a failed read
  ];
  const mode = (name: string, header: Log['header'], formatfile = '') =>
    saveLog(rig, { header, formatfile, log_def: [logFile({ id: 1, name, trigger: 1, cycle: 10, records: points })] });

  it('0 none, 2 names and units, 3 names, units and sources', async () => {
    clock.t = local(2027, 1, 4, 10, 0, 0);
    await mode('h0', 0);
    await fileIs(rig, 'h0_20270104.csv', crlf(['2027/01/04,10:00:00,7,1,42,']));
    clock.advance(10_000);
    await mode('h2', 2);
    await fileIs(rig, 'h2_20270104.csv', crlf(['Date,Time,level,pump,remote,bad', ',,l,,,', '2027/01/04,10:00:10,7,1,42,']));
    clock.advance(10_000);
    await mode('h3', 3);
    await fileIs(
      rig,
      'h3_20270104.csv',
      crlf(['Date,Time,level,pump,remote,bad', ',,l,,,', ',,COM2 DT500,COM2 R10A,COM2 DT100,COM1 DT0', '2027/01/04,10:00:20,7,1,42,']),
    );
  });

  it('4: the rows of the format file, its separator, date format and invalid text', async () => {
    await mkdir(join(rig.dataDir, 'logcfg'), { recursive: true });
    await writeFile(
      join(rig.dataDir, 'logcfg', 'tanks.cfg'),
      [
        '# tank farm, as for the original unit',
        '%DEF_TITLE="Tank farm"',
        '%DEF_SEPARATOR=";"',
        '%DEF_DATE="%d.%m.%Y"',
        '%DEF_INVALID="n/a"',
        '%HEADER="Date";"Time";%COLUMNS',
        '%HEADER+=;;%NAMES',
        '%HEADER+=;;%COMS',
        '%HEADER+=;;%REGISTERS',
        '%HEADER+=;;%TYPES',
        '%HEADER+=;;%DATAFORMATS',
        '%HEADER+=;;%UNITS',
        '%LOGDATA=%DATE;%TIME;%VALUES',
      ].join('\r\n'),
    );
    clock.t = local(2027, 1, 4, 11, 0, 0);
    await mode('h4', 4, 'tanks.cfg');
    await fileIs(
      rig,
      'h4_20270104.csv',
      crlf([
        'Date;Time;1;2;3;4',
        ';;level;pump;remote;bad',
        ';;COM2;COM2;COM2 [Unit no.2];COM1',
        ';;DT500;R10A;DT100;DT0',
        ';;UINT;INT;INT;INT',
        ';;US16;S16;S16;S16',
        ';;l;;;',
        '04.01.2027;11:00:00;7;1;42;n/a',
      ]),
    );
  });

  it('a bad or missing format file is an error status, logs nothing and crashes nothing; a good one starts logging', async () => {
    await writeFile(join(rig.dataDir, 'logcfg', 'broken.cfg'), '%DEF_TITLE="t"\n%DEF_DATETIME="%Y"\n');
    clock.t = local(2027, 1, 4, 12, 0, 0);
    await mode('bad', 4, 'broken.cfg');
    const a = await rig.admin();
    let st = (await a.get('/config/log_status')).body;
    expect(st).toMatchObject({ enabled: true, running: false, write: { state: 'error' }, files: [] });
    expect(st.write.reasons).toMatchObject([{ code: 'format_file' }]);
    expect(st.write.reasons[0].words).toContain('broken.cfg');
    expect(st.write.reasons[0].words).toContain('DEF_DATE');
    await mode('bad', 4, 'missing.cfg');
    st = (await a.get('/config/log_status')).body;
    expect(st).toMatchObject({ running: false, write: { state: 'error' } });
    expect(st.write.reasons[0].words).toContain('missing.cfg');
    await pause(fastSettleMs);
    expect((await csvFiles(rig)).filter((f) => f.startsWith('bad_'))).toEqual([]);
    expect((await a.get('/config/pew_log')).status).toBe(200); // the daemon answers
    await mode('bad', 4, 'tanks.cfg');
    expect((await a.get('/config/log_status')).body).toMatchObject({ running: true, write: { state: 'ok' } });
    await until(async () => (await csvFiles(rig)).includes('bad_20270104.csv'), 15_000, 'logging after the fix');
  });
});

describe('retention (file_max) at 4:00', () => {
  it('deletes exactly the files beyond the newest file_max of that log file, at 4:00 and not before', async () => {
    clock.t = local(2027, 1, 5, 3, 27, 0);
    // other files in the folder: another log file whose name starts the same, and no CSV at all
    await mkdir(logDir(rig), { recursive: true });
    await writeFile(join(logDir(rig), 'ret_2_20270101.csv'), 'x\r\n');
    await writeFile(join(logDir(rig), 'ret_notes.txt'), 'x\r\n');
    // a 9-minute cycle (a day is 160 of them, counted from midnight) on a minute split: one file per
    // record, none at 4:00 itself (240 min is no multiple of 9)
    await files([
      { name: 'ret', split: 'minute', trigger: 1, cycle: 540, file_max: 2 },
      { name: 'ret_2', trigger: 0, file_max: 1 },
    ]);
    const made = ['ret_20270105_0327.csv', 'ret_20270105_0336.csv', 'ret_20270105_0345.csv', 'ret_20270105_0354.csv'];
    const ours = async () => (await csvFiles(rig)).filter((f) => f.startsWith('ret_'));
    for (const [i, name] of made.entries()) {
      if (i > 0) clock.advance(540_000);
      await fileIs(rig, name, crlf([H, row('2027/01/05', `${name.slice(13, 15)}:${name.slice(15, 17)}:00`)]));
    }
    clock.t = local(2027, 1, 5, 3, 59, 59);
    await pause(fastSettleMs);
    expect(await ours()).toEqual([...made, 'ret_2_20270101.csv']);
    clock.t = local(2027, 1, 5, 4, 0, 0);
    await until(async () => (await ours()).length === 3, 15_000, 'retention');
    // ret keeps its newest two; ret_2 (file_max 1) has one file: nothing to delete
    expect(await ours()).toEqual(['ret_20270105_0345.csv', 'ret_20270105_0354.csv', 'ret_2_20270101.csv']);
    expect(await text(rig, 'ret_20270105_0354.csv')).toBe(crlf([H, row('2027/01/05', '03:54:00')]));
    expect(await readdir(logDir(rig))).toContain('ret_notes.txt');
    expect(await csvFiles(rig)).toContain('s_year_2027.csv'); // other log files' files are not touched
  });
});
