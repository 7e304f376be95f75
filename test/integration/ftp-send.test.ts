// The FTP send of the daemon (device/ftp; spec §3 pew_ftpc and pew_script, §4 rename and delete
// after a send, §9 FTP send) against a real ftp-srv on 127.0.0.1 (temp root, user and password,
// explicit FTPS), driven by a virtual FP-XH PLC on an in-process serial wire at COM2 (the service
// control interface) whose DT200–DT205 are the control block, and by the script's transmission
// cycle on the daemon's injected clock. Each case checks what arrived on the server byte for byte,
// the local folder's names, and the PLC's status words.

import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { FileSystem, type FtpConnection, FtpSrv } from 'ftp-srv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DELAY_MS } from '../../device/ftp/engine.ts';
import type { FtpStatus } from '../../device/model/ftp-status.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Ftpc, pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { pew_script, type Script } from '../../device/model/sections/script.ts';
import { certPath } from '../../device/system/cert-files.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { type Client, FakeClock, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { makeCertificates } from '../support/openssl.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { serviceEntry, statusDetail } from '../support/service-status.ts';
import { FRAMING, logDefaults, logFile, record, until, local as wall, wireCom2 } from './logger-rig.ts';

const USER = 'plc';
const PASSWORD = 'Secret-1';
const DT = 200; // spec §9: FTP control register default
// ftp-srv logs through bunyan: its refusals are what the tests provoke
const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

let work: string;
let root: string;
let certs: Awaited<ReturnType<typeof makeCertificates>>;
let d: TestDaemon;
let admin: Client;
let viewer: Client;
let plc: VirtualPlc;
let port: number;
const clock = new FakeClock(); // 2026-11-21 08:00 UTC = 09:00 in Berlin (logger-rig pins the zone)
const servers: FtpSrv[] = [];

function ftpServer(p: number, scheme: 'ftp' | 'ftps' = 'ftp'): FtpSrv {
  const srv = new FtpSrv({
    url: `${scheme}://${LOOPBACK}:${p}`,
    pasv_url: LOOPBACK,
    anonymous: false,
    log: quiet as never,
    tls: { cert: certs.cert, key: certs.key },
  });
  srv.on('login', ({ username, password }, resolve, reject) => {
    if (username === USER && password === PASSWORD) resolve({ root });
    else reject(new Error('Login incorrect'));
  });
  servers.push(srv);
  return srv;
}

/**
 * A server that goes down in the middle of an upload: its file system keeps the first CUT_AT bytes
 * of the first file stored (a partial file on the server) and then the whole server closes.
 */
const CUT_AT = 256 * 1024;
class CutFs extends FileSystem {
  constructor(
    connection: FtpConnection,
    private readonly cut: () => void,
  ) {
    super(connection, { root, cwd: '/' });
  }
  override write(fileName: string, opts?: { append?: boolean; start?: unknown }): { stream: Writable; clientPath: string } {
    const { stream: file, clientPath } = super.write(fileName, opts) as { stream: Writable; clientPath: string };
    let bytes = 0;
    const stream = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        if (bytes >= CUT_AT) return done();
        const part = chunk.subarray(0, CUT_AT - bytes);
        bytes += part.length;
        if (bytes < CUT_AT) return file.write(part, () => done());
        file.end(part, () => {
          this.cut();
          done();
        });
      },
      final: (done) => {
        if (bytes < CUT_AT) file.end(() => done());
        else done();
      },
    });
    return { stream, clientPath };
  }
}

function cuttingServer(p: number): FtpSrv {
  const srv = new FtpSrv({ url: `ftp://${LOOPBACK}:${p}`, pasv_url: LOOPBACK, anonymous: false, log: quiet as never });
  let done = false;
  srv.on('login', ({ connection }, resolve) => {
    resolve({
      root,
      fs: new CutFs(connection, () => {
        if (!done) {
          done = true;
          void srv.close();
        }
      }),
    });
  });
  servers.push(srv);
  return srv;
}

const local = () => join(d.dataDir, 'volumes', 'internal', 'log');
const localNames = async () => (await readdir(local())).sort();
const remote = (name: string) => readFile(join(root, 'upload', name));
const remoteNames = async () => (await readdir(join(root, 'upload'))).sort();
const words = () => plc.memory.readWords('DT', DT, 6);

async function save(section: string, value: object) {
  const r = await admin.post(`/config/${section}`, value);
  expect(r.status, r.text).toBe(200);
  await d.ctx.ftpSend.settled();
}
const ftp = (over: Partial<Ftpc> = {}) =>
  save('pew_ftpc', {
    ...defaultsOf(pew_ftpc),
    enable_ftp: true,
    plc_poll: 1,
    server_ip: LOOPBACK,
    server_port: port,
    server_user: USER,
    server_password: PASSWORD,
    server_dir: 'upload',
    local_file: 'tank',
    store_send: true,
    ...over,
  } satisfies Ftpc);
const script = (over: Partial<Script> = {}) => save('pew_script', { ...defaultsOf(pew_script), ftp_repeats: 0, ...over } satisfies Script);

const status = async (): Promise<FtpStatus> => statusDetail(viewer, 'ftp');

/** The PLC asks for a send; resolves with the status words once send number `n` is finished. */
async function plcSend(n: number): Promise<number[]> {
  plc.memory.writeWords('DT', DT, [1]);
  await until(() => words()[5] === n, 30_000, `send ${n} finished`);
  return words();
}

async function put(name: string, content: Buffer | string): Promise<Buffer> {
  const b = Buffer.from(content);
  await writeFile(join(local(), name), b);
  return b;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'ftp-send-'));
  root = join(work, 'ftp-root');
  await mkdir(join(root, 'upload'), { recursive: true });
  certs = await makeCertificates();
  port = await freePort();
  await ftpServer(port).listen();
  plc = new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: 1 });
  const wire = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: FRAMING });
  d = await startTestDaemon({ clock, serial: { virtualPorts: { COM2: (s) => wire.open(s) } } });
  admin = await d.admin();
  viewer = await d.user();
  await wireCom2(d, admin);
  await d.ctx.ftpSend.settled();
  await mkdir(local(), { recursive: true });
  await mkdir(join(d.dataDir, 'certs', 'pew_ftpc'), { recursive: true });
  await writeFile(certPath(d.dataDir, 'pew_ftpc', 'ca.pem'), certs.ca);
  await script();
  // the data logger has a log file tank, switched off: its file of today is held back (a file of a
  // name no log file of pew_log has is sent like any other)
  await save('pew_log', { ...logDefaults(), log_def: [logFile({ id: 1, name: 'tank', trigger: 0 })] });
}, 90_000);

afterAll(async () => {
  await d?.stop();
  for (const s of servers) await s.close().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
});

describe("FTP send on the PLC's request", () => {
  it("sends the finished files byte-exact, renames them, holds back today's log file, and reports done", async () => {
    const binary = await put('tank_20261119.csv', randomBytes(70_000)); // every byte value, CR and LF included
    const text = await put('tank_20261120.csv', 'Date,Time,v\r\n2026-11-20,23:45:00,7\r\n');
    await put('tank_20261121.csv', 'Date,Time,v\r\n2026-11-21,08:45:00,7\r\n'); // the logger's current day
    await put('other_20261120.csv', 'not matched by local_file\r\n');
    await ftp();
    expect(words()).toEqual([0, 0, 0, 0, 0, 0]);

    // request taken (DT200 back to 0), done (2), no error, 2 files sent, none failed, send no. 1
    expect(await plcSend(1)).toEqual([0, 2, 0, 2, 0, 1]);
    expect(await remoteNames()).toEqual(['tank_20261119.csv', 'tank_20261120.csv']);
    expect((await remote('tank_20261119.csv')).equals(binary)).toBe(true);
    expect((await remote('tank_20261120.csv')).equals(text)).toBe(true);
    expect(await localNames()).toEqual(['other_20261120.csv', 'tank_20261119.bak', 'tank_20261120.bak', 'tank_20261121.csv']);

    const s = await status();
    expect(s).toMatchObject({ enabled: true, cycle: false, running: false, state: 'done', localDir: 'internal/log' });
    expect(s.plc).toBeUndefined();
    expect(s.lastSend).toMatchObject({
      trigger: 'plc',
      result: 'done',
      files: ['tank_20261119.csv', 'tank_20261120.csv'],
      bytes: binary.length + text.length,
      failed: 0,
      held: ['tank_20261121.csv'],
      attempts: 1,
      deleted: 0,
    });
    expect(s.lastSend!.error).toBeUndefined();
    // the entry's counters since the daemon started: one send, its two files
    expect((await serviceEntry(viewer, 'ftp')).counters).toEqual({ sends: 1, sent: 2, failed: 0 });
  });

  it('a wrong password ends in error code 5 with every file left as it was', async () => {
    await put('tank_20261118.csv', 'a\r\n');
    await ftp({ server_password: 'Wrong-1' });
    expect(await plcSend(2)).toEqual([0, 3, 5, 0, 1, 2]);
    expect(await localNames()).toContain('tank_20261118.csv');
    expect(await remoteNames()).not.toContain('tank_20261118.csv');
    const s = await status();
    expect(s.lastSend).toMatchObject({ result: 'error', files: [], failed: 1, attempts: 1, error: { code: 'auth_failed', number: 5 } });
    expect(s.lastSend!.error!.message).toMatch(/530/);
    // a second send, its one file not sent; a save in between kept the counts
    expect((await serviceEntry(viewer, 'ftp')).counters).toEqual({ sends: 2, sent: 2, failed: 1 });
  });

  it('a server that is down is tried again ftp_repeats times, RETRY_DELAY_MS apart on the clock, then error code 2', async () => {
    const down = await freePort();
    await script({ ftp_repeats: 2 });
    await ftp({ server_port: down });
    plc.memory.writeWords('DT', DT, [1]);
    for (let attempt = 1; attempt <= 2; attempt++) {
      let retryAt = 0;
      await until(
        async () => {
          retryAt = (await status()).retryAt ?? 0;
          return retryAt > clock.now();
        },
        20_000,
        `attempt ${attempt} failed`,
      );
      // running while it waits, with the failed attempt's error code (2 refused) and in the status
      await until(() => words()[2] === 2, 20_000, 'error code of the failed attempt');
      expect(words().slice(0, 3)).toEqual([0, 1, 2]);
      const s = await status();
      expect(s.retryError).toMatchObject({ code: 'refused', number: 2, at: expect.any(Number) });
      expect((await serviceEntry(viewer, 'ftp')).lastError).toMatchObject({ code: 'refused', number: 2, at: s.retryError!.at });
      expect(retryAt - clock.now()).toBe(RETRY_DELAY_MS);
      clock.advance(RETRY_DELAY_MS);
    }
    await until(() => words()[5] === 3, 20_000, 'send 3 finished');
    expect(words()).toEqual([0, 3, 2, 0, 1, 3]);
    expect((await status()).lastSend).toMatchObject({ result: 'error', attempts: 3, error: { code: 'refused', number: 2 } });
    expect(await localNames()).toContain('tank_20261118.csv');
  });

  it('a server that comes back during the retries gets the files with the retry', async () => {
    const later = await freePort();
    await ftp({ server_port: later });
    plc.memory.writeWords('DT', DT, [1]);
    await until(async () => ((await status()).retryAt ?? 0) > clock.now(), 20_000, 'first attempt failed');
    await ftpServer(later).listen();
    clock.advance(RETRY_DELAY_MS);
    await until(() => words()[5] === 4, 20_000, 'send 4 finished');
    expect(words()).toEqual([0, 2, 0, 1, 0, 4]);
    expect((await status()).lastSend).toMatchObject({ result: 'done', attempts: 2, files: ['tank_20261118.csv'] });
    expect((await remote('tank_20261118.csv')).toString()).toBe('a\r\n');
    expect(await localNames()).toContain('tank_20261118.bak');
  });
});

describe('FTP send on the transmission cycle', () => {
  it("sends at base time + k · cycle on the unit's clock, and not before", async () => {
    await put('tank_20261117.csv', 'cycle\r\n');
    await ftp();
    await script({ ftp_transmission: true, transmission_btime: 30, ftp_send_cycle: 60 });
    const s = await status();
    expect(s.cycle).toBe(true);
    // every minute at :30 seconds local time
    expect(new Date(s.nextCycle!).getSeconds()).toBe(30);
    expect(s.nextCycle! - clock.now()).toBeGreaterThan(0);
    expect(s.nextCycle! - clock.now()).toBeLessThanOrEqual(60_000);
    clock.t = s.nextCycle! - 1000;
    await new Promise((r) => setTimeout(r, 2500));
    expect(words()[5]).toBe(4); // one second early: nothing sent
    clock.t = s.nextCycle!;
    await until(() => words()[5] === 5, 20_000, 'send 5 finished');
    expect(words()).toEqual([0, 2, 0, 1, 0, 5]);
    expect((await status()).lastSend).toMatchObject({ trigger: 'cycle', files: ['tank_20261117.csv'] });
    expect((await status()).nextCycle).toBe(s.nextCycle! + 60_000);
    expect((await remote('tank_20261117.csv')).toString()).toBe('cycle\r\n');
    await script({ ftp_transmission: false });
  });
});

describe('store_send off', () => {
  it('a sent file is renamed, and deleted by the next send that reaches the server', async () => {
    await put('tank_20261116.csv', 'x\r\n');
    await ftp({ store_send: false });
    const before = (await localNames()).filter((n) => n.endsWith('.bak'));
    expect(before.length).toBe(4);
    await plcSend(6);
    expect(await localNames()).toEqual(['other_20261120.csv', 'tank_20261116.bak', 'tank_20261121.csv']);
    expect((await status()).lastSend).toMatchObject({ result: 'done', files: ['tank_20261116.csv'], deleted: 4 });
    await plcSend(7);
    expect(await localNames()).toEqual(['other_20261120.csv', 'tank_20261121.csv']);
    expect((await status()).lastSend).toMatchObject({ result: 'done', files: [], deleted: 1 });
    await ftp();
  });
});

describe('FTPS', () => {
  it('explicit FTPS with the uploaded CA sends (active mode too); an untrusted server is error code 4', async () => {
    const data = await put('tank_20261115.csv', randomBytes(5000));
    await ftp({ server_ip: 'localhost', transfermode_ftps: true, ca: 'ca.pem', transfermode_passive: false });
    expect(await plcSend(8)).toEqual([0, 2, 0, 1, 0, 8]);
    expect((await remote('tank_20261115.csv')).equals(data)).toBe(true);

    await put('tank_20261114.csv', 'y\r\n');
    await ftp({ server_ip: 'localhost', transfermode_ftps: true });
    expect(await plcSend(9)).toEqual([0, 3, 4, 0, 1, 9]);
    expect(await localNames()).toContain('tank_20261114.csv');
    expect((await status()).lastSend!.error!.message).toMatch(/certificate/i);
  });

  it('implicit SSL sends, verified against the uploaded CA', async () => {
    const implicit = await freePort();
    await ftpServer(implicit, 'ftps').listen();
    await ftp({ server_ip: 'localhost', server_port: implicit, transfermode_ssl: true, ca: 'ca.pem' });
    expect(await plcSend(10)).toEqual([0, 2, 0, 1, 0, 10]);
    expect((await remote('tank_20261114.csv')).toString()).toBe('y\r\n');
  });
});

describe('ASCII transfer mode', () => {
  it('carries line ends as CR LF (a bare LF gains its CR, a CR LF stays one)', async () => {
    await put('tank_20261113.txt', 'a\nb\r\nc\n');
    await ftp({ transfermode_ascii: true });
    expect(await plcSend(11)).toEqual([0, 2, 0, 1, 0, 11]);
    expect((await remote('tank_20261113.txt')).toString()).toBe('a\r\nb\r\nc\r\n');
    expect(await localNames()).toContain('tank_20261113.bak');
  });
});

describe('a server that goes down during a send', () => {
  it('keeps the unsent file, retries, and the retry replaces its own partial upload', async () => {
    const small = await put('tank_20261110.csv', 'first\r\n');
    const big = await put('tank_20261111.csv', randomBytes(1024 * 1024));
    const p = await freePort();
    await cuttingServer(p).listen();
    await script({ ftp_repeats: 2 });
    await ftp({ server_port: p });
    plc.memory.writeWords('DT', DT, [1]);
    let retryAt = 0;
    await until(
      async () => {
        retryAt = (await status()).retryAt ?? 0;
        return retryAt > clock.now();
      },
      20_000,
      'first attempt cut',
    );
    // the first file went and was renamed; the second is on the server only in part, and unchanged here
    expect((await remote('tank_20261110.csv')).equals(small)).toBe(true);
    const partial = await remote('tank_20261111.csv');
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(big.length);
    expect(await localNames()).toEqual(expect.arrayContaining(['tank_20261110.bak', 'tank_20261111.csv']));
    expect(words().slice(0, 2)).toEqual([0, 1]);

    clock.advance(RETRY_DELAY_MS); // the server is still down: refused
    await until(async () => ((await status()).retryAt ?? 0) > retryAt, 20_000, 'second attempt refused');
    await ftpServer(p).listen(); // back again
    clock.advance(RETRY_DELAY_MS);
    await until(() => words()[5] === 12, 20_000, 'send 12 finished');
    expect(words()).toEqual([0, 2, 0, 2, 0, 12]);
    expect((await remote('tank_20261111.csv')).equals(big)).toBe(true);
    expect((await remoteNames()).filter((n) => n.startsWith('tank_20261111'))).toEqual(['tank_20261111.csv']); // no numbered copy
    expect(await localNames()).toEqual(expect.arrayContaining(['tank_20261110.bak', 'tank_20261111.bak']));
    expect((await status()).lastSend).toMatchObject({
      result: 'done',
      attempts: 3,
      files: ['tank_20261110.csv', 'tank_20261111.csv'],
      bytes: small.length + big.length,
    });
  });
});

describe('log files of the running data logger', () => {
  it("holds back the file the logger writes, and sends it once the next day's file has begun", async () => {
    plc.memory.writeWords('DT', 500, [7]);
    const r = await admin.post('/config/pew_log', {
      ...logDefaults(),
      enable_log: true,
      header: 1,
      log_def: [
        logFile({ id: 1, name: 'flow', trigger: 1, cycle: 60, split: 'day', records: [record({ id: 1, name: 'v', area: 1, reg_addr: '500', type: 1 })] }),
      ],
    });
    expect(r.status, r.text).toBe(200);
    await d.ctx.logger.settled();
    await ftp({ local_file: 'flow' });
    clock.advance(60_000);
    await until(async () => (await localNames()).includes('flow_20261121.csv'), 20_000, "the logger's first record");

    expect(await plcSend(13)).toEqual([0, 2, 0, 0, 0, 13]);
    expect((await status()).lastSend).toMatchObject({ result: 'done', files: [], held: ['flow_20261121.csv'] });

    clock.t = wall(2026, 11, 22, 0, 0, 30); // the next day: its first record closes yesterday's file
    admin = await d.admin(); // sessions follow the clock
    viewer = await d.user();
    await until(async () => (await localNames()).includes('flow_20261122.csv'), 20_000, 'the first record of the next day');
    const yesterday = await readFile(join(local(), 'flow_20261121.csv'));
    expect(yesterday.toString()).toMatch(/^Date,Time,v\r\n2026\/11\/21,/);

    expect(await plcSend(14)).toEqual([0, 2, 0, 1, 0, 14]);
    expect((await status()).lastSend).toMatchObject({ files: ['flow_20261121.csv'], held: ['flow_20261122.csv'] });
    expect((await remote('flow_20261121.csv')).equals(yesterday)).toBe(true);
    expect(await localNames()).toEqual(expect.arrayContaining(['flow_20261121.bak', 'flow_20261122.csv']));
    const off = await admin.post('/config/pew_log', { ...logDefaults(), enable_log: false });
    expect(off.status, off.text).toBe(200);
  });
});

describe('a local directory that cannot be used', () => {
  it('ends the send at once with error code 7 and says why', async () => {
    await script({ ftp_repeats: 3 });
    await ftp({ local_dir: 'internal/no-such-folder' });
    expect(await plcSend(15)).toEqual([0, 3, 7, 0, 0, 15]);
    const s = await status();
    expect(s.localDir).toBe('internal/no-such-folder');
    expect(s.lastSend).toMatchObject({
      result: 'error',
      attempts: 1,
      error: { code: 'local', number: 7, message: 'local directory internal/no-such-folder does not exist' },
    });
  });
});

describe('a name the server has already', () => {
  it("goes under the first free numbered name, the server's file and the local ones left as they were", async () => {
    await script();
    await ftp({ local_file: 'tank_20261101' });
    await writeFile(join(root, 'upload', 'tank_20261101.csv'), 'theirs\r\n');
    await writeFile(join(root, 'upload', 'tank_20261101_1.csv'), 'theirs too\r\n');
    const ours = await put('tank_20261101.csv', 'ours\r\n');
    await put('tank_20261101_2.bak', 'sent long ago\r\n');
    expect(await plcSend(16)).toEqual([0, 2, 0, 1, 0, 16]);
    expect((await remote('tank_20261101.csv')).toString()).toBe('theirs\r\n');
    expect((await remote('tank_20261101_1.csv')).toString()).toBe('theirs too\r\n');
    expect((await remote('tank_20261101_2.csv')).equals(ours)).toBe(true);
    // here the sent file takes its name on the server, numbered again when that is taken here
    expect((await readFile(join(local(), 'tank_20261101_2.bak'))).toString()).toBe('sent long ago\r\n');
    expect((await readFile(join(local(), 'tank_20261101_2_1.bak'))).equals(ours)).toBe(true);
    expect((await status()).lastSend).toMatchObject({
      result: 'done',
      files: ['tank_20261101.csv'],
      renamed: [{ file: 'tank_20261101.csv', remote: 'tank_20261101_2.csv', local: 'tank_20261101_2_1.bak' }],
    });
  });
});
