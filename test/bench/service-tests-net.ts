// Connection test figures of `npm run bench` (part "connection tests"): the time of the MQTT, FTP,
// HTTP client and e-mail tests (device/services/*-test.ts, every step they take) against a local
// peer, median of 5, side by side with the bare library doing only its connect and login to the
// same peer in the same run (the floor: mqtt connect, basic-ftp access, one undici GET, nodemailer
// verify). Peers on 127.0.0.1: aedes, ftp-srv, node:http, smtp-server; no TLS, no proxy.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer as httpServer } from 'node:http';
import { createServer as netServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Aedes } from 'aedes';
import { Client as FtpClient } from 'basic-ftp';
import { FtpSrv } from 'ftp-srv';
import mqtt from 'mqtt';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { request } from 'undici';
import { defaultsOf } from '../../device/model/section.ts';
import { pew_email } from '../../device/model/sections/email.ts';
import { pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { pew_httpc } from '../../device/model/sections/httpc.ts';
import { pew_mqtt } from '../../device/model/sections/mqtt.ts';
import type { ServiceTestResult } from '../../device/model/servicetest.ts';
import { testFtp } from '../../device/services/ftp-test.ts';
import { testHttp } from '../../device/services/http-test.ts';
import { testMail } from '../../device/services/mail-test.ts';
import { testMqtt } from '../../device/services/mqtt-test.ts';
import { freePorts, LOOPBACK } from '../support/ports.ts';
import { median, type Row } from './stats.ts';

const RUNS = 5;
const USER = 'plc';
const PASSWORD = 'Secret-1';
const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/** ours and the bare library in turns, so both see the same machine load */
async function pairOf(ours: () => Promise<ServiceTestResult>, bare: () => Promise<unknown>): Promise<{ ours: number; bare: number; steps: string }> {
  const a: number[] = [];
  const b: number[] = [];
  let steps = '';
  for (let i = 0; i < RUNS; i++) {
    a.push(
      await timed(async () => {
        const r = await ours();
        if (!r.ok) throw new Error(`${r.peer}: ${r.failure?.reason} ${r.failure?.message}`);
        steps = r.steps.map((s) => s.step).join(' → ');
      }),
    );
    b.push(await timed(bare));
  }
  return { ours: median(a), bare: median(b), steps };
}

const listening = (s: Server, port: number) => new Promise<void>((resolve) => s.listen(port, LOOPBACK, () => resolve()));

export async function measureConnectionTests(rows: Row[]): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-servicetests-'));
  const [mqttPort, ftpPort, httpPort, smtpPort] = (await freePorts(4)) as [number, number, number, number];
  const broker = await Aedes.createBroker({ authenticate: (_c, u, p, done) => done(null, u === USER && p?.toString() === PASSWORD) });
  const mqttServer = netServer(broker.handle);
  await mkdir(join(work, 'ftp', 'upload'), { recursive: true });
  const ftp = new FtpSrv({ url: `ftp://${LOOPBACK}:${ftpPort}`, pasv_url: LOOPBACK, anonymous: false, log: quiet as never });
  ftp.on('login', ({ username, password }, resolve, reject) =>
    username === USER && password === PASSWORD ? resolve({ root: join(work, 'ftp') }) : reject(new Error('Login incorrect')),
  );
  const http = httpServer((_req, res) => res.end('running'));
  const smtp = new SMTPServer({
    logger: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth: (a, _s, cb) => cb(null, { user: a.username }),
  });
  try {
    await Promise.all([
      listening(mqttServer, mqttPort),
      ftp.listen(),
      listening(http, httpPort),
      new Promise<void>((r) => smtp.listen(smtpPort, LOOPBACK, () => r())),
    ]);

    const m = { ...defaultsOf(pew_mqtt), broker_addr: `mqtt://${LOOPBACK}:${mqttPort}`, broker_user: USER, broker_password: PASSWORD };
    const mq = await pairOf(
      () => testMqtt(m, work),
      async () => {
        const c = await mqtt.connectAsync(`mqtt://${LOOPBACK}:${mqttPort}`, { username: USER, password: PASSWORD, reconnectPeriod: 0 });
        await c.endAsync(true);
      },
    );
    rows.push({ figure: 'MQTT connection test (ms)', ours: mq.ours, baseline: mq.bare, note: `median of ${RUNS}; aedes; ${mq.steps} vs mqtt connect` });

    const f = { ...defaultsOf(pew_ftpc), server_ip: LOOPBACK, server_port: ftpPort, server_user: USER, server_password: PASSWORD, server_dir: 'upload' };
    const fp = await pairOf(
      () => testFtp(f, work),
      async () => {
        const c = new FtpClient();
        await c.access({ host: LOOPBACK, port: ftpPort, user: USER, password: PASSWORD });
        c.close();
      },
    );
    rows.push({
      figure: 'FTP connection test (ms)',
      ours: fp.ours,
      baseline: fp.bare,
      note: `median of ${RUNS}; ftp-srv, passive; ${fp.steps} vs basic-ftp access`,
    });

    const h = { ...defaultsOf(pew_httpc), server_addr: `http://${LOOPBACK}:${httpPort}/status`, transfermode_ssl: false };
    const hp = await pairOf(
      () => testHttp(h, work),
      async () => {
        const r = await request(`http://${LOOPBACK}:${httpPort}/status`);
        await r.body.dump();
      },
    );
    rows.push({
      figure: 'HTTP client connection test (ms)',
      ours: hp.ours,
      baseline: hp.bare,
      note: `median of ${RUNS}; node:http; ${hp.steps} vs one undici GET`,
    });

    const e = {
      ...defaultsOf(pew_email),
      server_smtp: LOOPBACK,
      server_smtp_port: smtpPort,
      transfermode_ssl: false,
      server_user: USER,
      server_password: PASSWORD,
    };
    const ep = await pairOf(
      () => testMail(e, work),
      async () => {
        const t = nodemailer.createTransport({ host: LOOPBACK, port: smtpPort, secure: false, ignoreTLS: true, auth: { user: USER, pass: PASSWORD } });
        await t.verify();
        t.close();
      },
    );
    rows.push({
      figure: 'e-mail connection test (ms)',
      ours: ep.ours,
      baseline: ep.bare,
      note: `median of ${RUNS}; smtp-server, AUTH PLAIN; ${ep.steps} vs nodemailer verify`,
    });
  } finally {
    mqttServer.close();
    await new Promise<void>((r) => broker.close(() => r()));
    await ftp.close().catch(() => undefined);
    http.closeAllConnections();
    http.close();
    await new Promise<void>((r) => smtp.close(() => r()));
    await rm(work, { recursive: true, force: true });
  }
}
