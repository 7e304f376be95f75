// No file is replaced, on the server or on the unit (docs/ftp.md "No file is replaced",
// docs/script.md): the script writes a file of a fixed name and sends it again and again to a real
// ftp-srv through the FTP send; every send's copy stays on the server and on the unit with the
// lines it was sent with. A script edited to append other values keeps the old file as it was and
// begins a new one. File names with the data logger's date placeholders begin a file a day. The
// daemon runs against a virtual FP-XH on an in-process serial wire at COM2 (the service control
// interface), on its injected clock, which the test moves section by section.

import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultsOf } from '../../device/model/section.ts';
import { type Ftpc, pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { pew_script, type Script } from '../../device/model/sections/script.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, FakeClock, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { FTP_PASSWORD, FTP_USER, startFtpServer, type TestFtpServer } from '../support/ftp-server.ts';
import { LOOPBACK } from '../support/ports.ts';
import { serviceEntry, statusDetail } from '../support/service-status.ts';
import { FRAMING, until, local as wall, wireCom2 } from './logger-rig.ts';

let work: string;
let root: string;
let d: TestDaemon;
let admin: Client;
let plc: VirtualPlc;
let ftpPort: number;
let server: TestFtpServer;
const clock = new FakeClock(); // 2026-11-21 08:00 UTC = 09:00 in Berlin (logger-rig pins the zone)

const folder = () => join(d.dataDir, 'volumes', 'internal', 'log');
const upload = () => join(root, 'upload');
const lines = async (dir: string, name: string) => (await readFile(join(dir, name), 'utf8').catch(() => '')).split('\r\n').filter((l) => l !== '');
const here = (name: string) => lines(folder(), name);
const there = (name: string) => lines(upload(), name);
const names = async (dir: string, prefix: string) => (await readdir(dir)).filter((n) => n.startsWith(prefix)).sort();
const sends = async () => (await serviceEntry(admin, 'ftp')).counters.sends ?? 0;

/** Saves the script's settings and text as one transaction and waits until the new run started. */
async function runScript(content: string): Promise<void> {
  const r = await admin.post('/config', {
    pew_script: { ...defaultsOf(pew_script), enable_script: true, ftp_repeats: 0 } satisfies Script,
    script_file: { content },
  });
  expect(r.status, r.text).toBe(200);
  await d.ctx.services.settled();
  await d.ctx.ftpSend.settled();
}

async function sendFiles(localFile: string): Promise<void> {
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
    local_file: localFile,
    store_send: true,
  };
  const r = await admin.post('/config/pew_ftpc', ftp);
  expect(r.status, r.text).toBe(200);
  await d.ctx.ftpSend.settled();
}

/** Moves the unit clock on by `ms` and waits until `file` holds `count` lines. */
async function lineAfter(ms: number, file: string, count: number): Promise<void> {
  clock.advance(ms);
  await until(async () => (await here(file)).length === count, 15_000, `${file}: ${count} lines`);
}

/** Moves the unit clock on by `ms` to the script's [cycle 45] send and waits until that send finished. */
async function sendAfter(ms: number): Promise<void> {
  const before = await sends();
  clock.advance(ms);
  await until(async () => (await sends()) === before + 1, 30_000, 'the send finished');
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'script-send-names-'));
  root = join(work, 'ftp-root');
  await mkdir(upload(), { recursive: true });
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

describe('sends of a file of a fixed name', () => {
  it('keep every copy with its own lines, on the server and on the unit', async () => {
    await sendFiles('audit');
    // a line every 10 s, a send every 45 s: at 90 s both are due, the line first (section order)
    await runScript(['[init]', 'file audit_log.csv', '[cycle 10]', 'read v = DT 300', 'append v', '[cycle 45]', 'send'].join('\n'));
    for (let k = 1; k <= 4; k++) {
      plc.memory.writeWords('DT', 300, [k]);
      await lineAfter(10_000, 'audit_log.csv', 1 + k); // 10 … 40 s
    }
    await sendAfter(5_000); // 45 s
    const first = await there('audit_log.csv');
    expect(first.map((l) => l.split(';').at(-1))).toEqual(['v', '1', '2', '3', '4']);
    expect(await here('audit_log.bak')).toEqual(first);

    for (let k = 5; k <= 8; k++) {
      plc.memory.writeWords('DT', 300, [k]);
      await lineAfter(k === 5 ? 5_000 : 10_000, 'audit_log.csv', k - 3); // 50 … 80 s, a new file with its header
    }
    plc.memory.writeWords('DT', 300, [9]);
    await sendAfter(10_000); // 90 s: the fifth line, then the send
    const second = await there('audit_log_1.csv');
    expect(second.map((l) => l.split(';').at(-1))).toEqual(['v', '5', '6', '7', '8', '9']);
    // the first send's copies are as they were: 5 lines there and here
    expect(await there('audit_log.csv')).toEqual(first);
    expect(await here('audit_log.bak')).toEqual(first);
    expect(await here('audit_log_1.bak')).toEqual(second);
    expect(await names(upload(), 'audit')).toEqual(['audit_log.csv', 'audit_log_1.csv']);
    expect(await names(folder(), 'audit')).toEqual(['audit_log.bak', 'audit_log_1.bak']);
    const f = await statusDetail(admin, 'ftp');
    expect(f.lastSend).toMatchObject({
      trigger: 'script',
      result: 'done',
      files: ['audit_log.csv'],
      renamed: [{ file: 'audit_log.csv', remote: 'audit_log_1.csv', local: 'audit_log_1.bak' }],
    });
    expect(
      d.ctx.log
        .recent()
        .filter((e) => e.msg.startsWith('ftp send: a file went under a numbered name'))
        .at(-1)?.fields,
    ).toEqual({
      file: 'audit_log.csv',
      remote: 'audit_log_1.csv',
      local: 'audit_log_1.bak',
    });

    // the server's files were fetched and removed: the name is free there, not here
    await rm(join(upload(), 'audit_log.csv'));
    await rm(join(upload(), 'audit_log_1.csv'));
    plc.memory.writeWords('DT', 300, [10]);
    await lineAfter(10_000, 'audit_log.csv', 2); // 100 s
    await sendAfter(35_000); // 135 s
    expect(await names(upload(), 'audit')).toEqual(['audit_log.csv']);
    expect(await names(folder(), 'audit')).toEqual(['audit_log.bak', 'audit_log_1.bak', 'audit_log_2.bak']);
    expect(await here('audit_log_2.bak')).toEqual(await there('audit_log.csv'));
    expect(await here('audit_log.bak')).toEqual(first);
    expect(await here('audit_log_1.bak')).toEqual(second);
  }, 120_000);
});

describe('a script whose append names other values', () => {
  it('keeps the old file as it was under a numbered name and begins a new file with the new header', async () => {
    plc.memory.writeWords('DT', 300, [1, 2]);
    await runScript(['[init]', 'file cols.csv', '[cycle 10]', 'read a = DT 300', 'append a'].join('\n'));
    await lineAfter(10_000, 'cols.csv', 2);
    await lineAfter(10_000, 'cols.csv', 3);
    const old = await here('cols.csv');
    expect(old.map((l) => l.split(';').slice(2).join(';'))).toEqual(['a', '1', '1']);

    await runScript(['[init]', 'file cols.csv', '[cycle 10]', 'read a = DT 300', 'read b = DT 301', 'append a, b'].join('\n'));
    await lineAfter(10_000, 'cols.csv', 2);
    expect(await here('cols_1.csv')).toEqual(old);
    expect((await here('cols.csv')).map((l) => l.split(';').slice(2).join(';'))).toEqual(['a;b', '1;2']);
    expect(await names(folder(), 'cols')).toEqual(['cols.csv', 'cols_1.csv']);
    expect(
      d.ctx.log
        .recent()
        .filter((e) => e.msg.startsWith('script: the file holds another header'))
        .at(-1)?.fields,
    ).toEqual({
      file: 'cols.csv',
      kept: 'cols_1.csv',
      header: 'date;time;a;b',
    });
  });
});

describe('file names with date placeholders', () => {
  it("begin a file a day; the script sends them, today's too", async () => {
    await sendFiles('day');
    clock.t = wall(2026, 11, 21, 23, 59, 30);
    admin = await d.admin(); // sessions follow the clock
    plc.memory.writeWords('DT', 300, [7]);
    await runScript(['[init]', 'file day_%Y%m%d.csv', '[cycle 15]', 'read v = DT 300', 'append v', '[cycle 45]', 'send'].join('\n'));
    await lineAfter(15_000, 'day_20261121.csv', 2); // 23:59:45
    await lineAfter(15_000, 'day_20261122.csv', 2); // 00:00:00, the next day
    await sendAfter(15_000); // 00:00:15: a line, then the send
    expect(await there('day_20261121.csv')).toHaveLength(2);
    expect(await there('day_20261122.csv')).toHaveLength(3);
    expect(await names(folder(), 'day')).toEqual(['day_20261121.bak', 'day_20261122.bak']);
    // a name that looks like a log file's is no log file of the logger: not held back
    expect((await statusDetail(admin, 'ftp')).lastSend).toMatchObject({ result: 'done', files: ['day_20261121.csv', 'day_20261122.csv'], held: [] });
  });

  it('refuses a placeholder that is none, with its own code, line and column', async () => {
    const r = await admin.post('/config', {
      pew_script: { ...defaultsOf(pew_script), enable_script: true } satisfies Script,
      script_file: { content: '[init]\nfile day_%Q.csv\n' },
    });
    expect(r.status).toBe(400);
    const issues = (r.body as { error: { issues: { section: string; path: string; code: string; params: Record<string, unknown> }[] } }).error.issues;
    expect(issues.map((i) => [i.section, i.path, i.code, i.params.script, i.params.line, i.params.column, i.params.placeholder])).toEqual([
      ['pew_script', 'enable_script', 'script_invalid', 'bad_file_placeholder', 2, 10, '%Q'],
      ['script_file', 'content', 'script_invalid', 'bad_file_placeholder', 2, 10, '%Q'],
    ]);
  });
});
