// The script runs (device/script; docs/script.md) in the daemon against a virtual FP-XH PLC on an
// in-process serial wire at COM2 (the service control interface), on the daemon's injected clock:
// the default script's CSV lines every cycle, [on R10A] once per rising edge, the INTERN memory, a
// failing read logged with its line while the next cycle still runs, and send reaching a real
// ftp-srv through the FTP send.

import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FtpStatus } from '../../device/model/ftp-status.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Ftpc, pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { pew_script, type Script } from '../../device/model/sections/script.ts';
import type { ServiceStatus, ServicesStatus } from '../../device/model/service-status.ts';
import { DEFAULT_SCRIPT } from '../../device/system/default-script.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, FakeClock, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { FTP_PASSWORD, FTP_USER, startFtpServer, type TestFtpServer } from '../support/ftp-server.ts';
import { LOOPBACK } from '../support/ports.ts';
import { statusDetail } from '../support/service-status.ts';
import { COM2, FRAMING, until, wireCom2 } from './logger-rig.ts';

type Issue = { section: string; path: string; code: string; params: Record<string, unknown> };

let work: string;
let root: string;
let d: TestDaemon;
let admin: Client;
let plc: VirtualPlc;
let ftpPort: number;
let server: TestFtpServer;
const clock = new FakeClock(); // 2026-11-21 08:00 UTC = 09:00 in Berlin (logger-rig pins the zone)

const folder = () => join(d.dataDir, 'volumes', 'internal', 'log');
const two = (n: number) => String(n).padStart(2, '0');
/** date;time of the unit clock in local time, as the script writes it */
function stamp(ms: number): string {
  const t = new Date(ms);
  return `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())};${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}`;
}
const csv = async (name: string) => readFile(join(folder(), name), 'utf8').catch(() => '');
const lines = async (name: string) => (await csv(name)).split('\r\n').filter((l) => l !== '');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function status(): Promise<ServiceStatus> {
  const r = await admin.get('/config/service_status');
  expect(r.status).toBe(200);
  return (r.body as ServicesStatus).services.find((s) => s.service === 'script')!;
}
const runsOf = async (section: string) => (await status()).script?.sections.find((s) => s.section === section)?.runs ?? 0;

/** Saves the script's settings and text as one transaction and waits until the new run started. */
async function runScript(content: string, over: Partial<Script> = {}): Promise<number> {
  const r = await admin.post('/config', { pew_script: { ...defaultsOf(pew_script), enable_script: true, ...over } satisfies Script, script_file: { content } });
  expect(r.status, r.text).toBe(200);
  await d.ctx.services.settled();
  await d.ctx.ftpSend.settled();
  return clock.now();
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'script-run-'));
  root = join(work, 'ftp-root');
  await mkdir(join(root, 'upload'), { recursive: true });
  server = await startFtpServer(root);
  ftpPort = server.port;
  plc = new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: 1 });
  const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
  d = await startTestDaemon({ clock, serial: { virtualPorts: { COM2: (s) => wire.open(s) } } });
  admin = await d.admin();
  await wireCom2(d, admin);
  await mkdir(folder(), { recursive: true });
}, 90_000);

afterAll(async () => {
  await d?.stop();
  await server?.close();
  await rm(work, { recursive: true, force: true });
});

describe('the script in the daemon', () => {
  it('runs the default script: the right CSV line every cycle of 60 s on the unit clock', async () => {
    plc.memory.writeWords('DT', 100, [215, 0x10000 - 30]); // temp_in 215, temp_out -30 (INT)
    plc.memory.writeWords('DT', 200, [70000 & 0xffff, 70000 >>> 16]); // pieces 70000 (UDINT, low word first)
    const t0 = await runScript(DEFAULT_SCRIPT);
    await until(async () => (await runsOf('init')) === 1, 15_000, 'init ran');
    expect(await csv('values.csv')).toBe(''); // [init] only chooses the file

    clock.advance(60_000);
    await until(async () => (await lines('values.csv')).length === 2, 15_000, 'first cycle');
    plc.memory.writeWords('DT', 100, [216]);
    clock.advance(60_000);
    await until(async () => (await lines('values.csv')).length === 3, 15_000, 'second cycle');
    // the run is counted once its line is written: on a busy machine the status may come between the two
    await until(async () => (await runsOf('cycle 60')) === 2, 15_000, 'second cycle counted');
    expect(await csv('values.csv')).toBe(
      ['date;time;temp_in;temp_out;pieces', `${stamp(t0 + 60_000)};215;-30;70000`, `${stamp(t0 + 120_000)};216;-30;70000`, ''].join('\r\n'),
    );
    const s = await status();
    expect(s).toMatchObject({ service: 'script', enabled: true, state: 'running' });
    expect(s.script?.errors).toEqual([]);
    expect(s.script?.sections.map((x) => [x.section, x.runs, x.overruns])).toEqual([
      ['init', 1, 0],
      ['cycle 60', 2, 0],
      ['on R10A', 0, 0],
    ]);
    expect(s.script?.lastFailure).toBeUndefined();
  });

  it('runs [on R10A] once per rising edge of the relay, and writes the INTERN memory', async () => {
    plc.memory.writeWords('WR', 10, [0]);
    plc.memory.writeWords('DT', 300, [7]);
    await runScript(['[init]', 'file edges.csv', '[on R10A]', 'read v = DT 300', 'append v', 'write INTERN 5 = v'].join('\n'));
    // the relay is read as off first (no edge at the start): wait for two of the script's polls on the wire
    const requests = () => d.ctx.com.links.get(COM2)!.status().stats.requests;
    const before = requests();
    await until(() => requests() >= before + 2, 15_000, 'the relay polled');
    plc.memory.writeWords('WR', 10, [1 << 10]);
    await until(async () => (await lines('edges.csv')).length === 2, 15_000, 'first edge');
    await pause(3000); // the relay stays on for several polls: no second run
    expect(await runsOf('on R10A')).toBe(1);
    plc.memory.writeWords('WR', 10, [0]);
    const off = requests();
    await until(() => requests() >= off + 2, 15_000, 'the relay polled off');
    plc.memory.writeWords('DT', 300, [8]);
    plc.memory.writeWords('WR', 10, [(1 << 10) | 1]); // R10A on again (R100 beside it changes nothing)
    await until(async () => (await lines('edges.csv')).length === 3, 15_000, 'second edge');
    await pause(2500);
    expect((await lines('edges.csv')).map((l) => l.split(';')[2])).toEqual(['v', '7', '8']);
    expect(await runsOf('on R10A')).toBe(2);
    expect(d.ctx.com.links.internal.words[5]).toBe(8);
  });

  it('logs a failing read with its line and runs the next cycle all the same', async () => {
    plc.memory.writeWords('DT', 300, [9]);
    const t0 = await runScript(['[init]', 'file fails.csv', '[cycle 5]', 'read a = DT 300', 'read b = DT 70000', 'append a, b'].join('\n'));
    clock.advance(5_000);
    await until(async () => (await lines('fails.csv')).length === 2, 15_000, 'first cycle');
    plc.memory.writeWords('DT', 300, [10]);
    clock.advance(5_000);
    await until(async () => (await lines('fails.csv')).length === 3, 15_000, 'second cycle');
    // the FP-XH has DT 0-65532: DT 70000 is refused, its value stays empty
    expect(await lines('fails.csv')).toEqual(['date;time;a;b', `${stamp(t0 + 5_000)};9;`, `${stamp(t0 + 10_000)};10;`]);
    // a run is counted when its section ends, after its append has reached the file
    const runsOf5 = async () => (await status()).script?.sections.find((x) => x.section === 'cycle 5')?.runs;
    await until(async () => (await runsOf5()) === 2, 15_000, 'the second run counted');
    const s = await status();
    expect(s.script?.lastFailure).toMatchObject({ line: 5 });
    expect(s.lastError).toMatchObject({ code: 'plc_area' });
    expect(s.counters).toMatchObject({ failed: 2 });
    expect(s.script?.sections.find((x) => x.section === 'cycle 5')?.runs).toBe(2);
    const logged = d.ctx.log.recent().filter((e) => e.msg === 'script: a statement failed');
    expect(logged.length).toBeGreaterThanOrEqual(2);
    expect(logged.at(-1)?.fields).toMatchObject({ line: 5, section: 'cycle 5', code: 'plc_area' });
  });

  it('hands the closed file to the FTP send: it reaches ftp-srv and is renamed locally', async () => {
    const ftp: Ftpc = {
      ...defaultsOf(pew_ftpc),
      enable_ftp: true,
      plc_control_dt: 1000,
      plc_poll: 1,
      server_ip: LOOPBACK,
      server_port: ftpPort,
      server_user: FTP_USER,
      server_password: FTP_PASSWORD,
      server_dir: 'upload',
      local_file: 'tank',
      store_send: true,
    };
    expect((await admin.post('/config/pew_ftpc', ftp)).status).toBe(200);
    plc.memory.writeWords('DT', 300, [42]);
    const t0 = await runScript(['[init]', 'read level = DT 300', 'file tank_script.csv', 'append level', 'send'].join('\n'), { ftp_repeats: 0 });
    // the file is renamed once the server has acknowledged it: only then is its upload complete (ftp-srv
    // creates the file when the upload begins, so seeing its name is not enough to read it)
    await until(async () => (await readdir(folder())).includes('tank_script.bak'), 30_000, 'sent and renamed locally');
    const sent = `date;time;level\r\n${stamp(t0)};42\r\n`;
    expect(await readdir(join(root, 'upload'))).toContain('tank_script.csv');
    expect(await readFile(join(root, 'upload', 'tank_script.csv'), 'utf8')).toBe(sent);
    expect(await readFile(join(folder(), 'tank_script.bak'), 'utf8')).toBe(sent);
    const f: FtpStatus = await statusDetail(admin, 'ftp');
    expect(f.lastSend).toMatchObject({ trigger: 'script', result: 'done', files: ['tank_script.csv'] });
    expect((await status()).script?.lastFailure).toBeUndefined();
  });

  it("refuses a script with errors while it is enabled, on save, on writefile and on enabling, with each error's line, column and code", async () => {
    const good = ['[init]', 'file keep.csv'].join('\n');
    await runScript(good);
    const bad = ['[init]', 'read x = DX 1', '[cycle 0]'].join('\n');
    const expected = [
      { line: 2, column: 10, script: 'bad_area' },
      { line: 3, column: 8, script: 'cycle_range' },
    ];
    const saved = await admin.post('/config', { script_file: { content: bad } });
    expect(saved.status).toBe(400);
    const issues = (saved.body as { error: { issues: Issue[] } }).error.issues;
    expect(issues.map((i) => [i.section, i.path, i.code, i.params.line, i.params.column, i.params.script])).toEqual(
      expected.map((e) => ['script_file', 'content', 'script_invalid', e.line, e.column, e.script]),
    );
    const written = await admin.post('/config/writefile', { content: bad });
    expect(written.status).toBe(400);
    expect(((await admin.get('/config/script_file')).body as { content: string }).content).toBe(good);

    // switched off, the text may be saved; switching it on is refused at the switch
    await runScript(bad, { enable_script: false });
    const on = await admin.post('/config/pew_script', { ...defaultsOf(pew_script), enable_script: true });
    expect(on.status).toBe(400);
    const onIssues = (on.body as { error: { issues: Issue[] } }).error.issues;
    expect(onIssues.map((i) => [i.section, i.path, i.code, i.params.script])).toEqual([
      ['pew_script', 'enable_script', 'script_invalid', 'bad_area'],
      ['pew_script', 'enable_script', 'script_invalid', 'cycle_range'],
    ]);
    const s = await status();
    expect(s).toMatchObject({ enabled: false, state: 'off' });
    // the status lists the saved text's errors, so /script shows why it cannot run
    expect(s.script?.errors.map((e) => [e.line, e.column, e.code])).toEqual([
      [2, 10, 'bad_area'],
      [3, 8, 'cycle_range'],
    ]);
  });
});
