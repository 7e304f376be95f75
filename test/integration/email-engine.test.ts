// The e-mail engine (device/email; spec §3 pew_email, §5, §9 SMTP block of 7 words at DT230)
// against the smtp-server package on a free port (STARTTLS off: plain SMTP with AUTH PLAIN), with
// a virtual FP-XH on COM1 whose control block is set through the simulator's block helper: a mail
// with the PLC's text, the subject from the section or the text's first line, the newest log file
// attached while the section's store_send is on (and none while it is off), arrives with the right
// headers; a server that is down keeps it queued (whatever store_send says).

import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACH_NOTE } from '../../device/email/run.ts';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { EMAIL_BLOCK } from '../../device/model/blocks/email.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Email, pew_email } from '../../device/model/sections/email.ts';
import { putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { freePort, LOOPBACK } from '../support/ports.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';

const DT = 230; // spec §9: SMTP control register default
let rig: MqttRig;
let smtp: SMTPServer | undefined;
let port: number;
const mails: { from: string; to: string[]; data: string; user: string }[] = [];

function startSmtp(): Promise<SMTPServer> {
  const s = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth: (auth, _session, cb) =>
      auth.username === 'plc@example.com' && auth.password === 'Secret-1' ? cb(null, { user: auth.username }) : cb(new Error('bad login')),
    onData: (stream, session, cb) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => {
        mails.push({
          from: (session.envelope.mailFrom as { address: string }).address,
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(parts).toString(),
          user: String(session.user),
        });
        cb();
      });
    },
  });
  return new Promise((resolve) => s.listen(port, LOOPBACK, () => resolve(s)));
}

const block = () => readBlock(rig.plc.memory, EMAIL_BLOCK, DT);
function ask(request: number, text: string): number {
  const before = block().counter!;
  setBlock(rig.plc.memory, EMAIL_BLOCK, DT, { text_addr: 3000, text_len: putBytes(rig.plc.memory, 3000, text), request });
  return before;
}

async function saveEmail(storeSend: boolean): Promise<void> {
  const r = await rig.admin.post('/config/pew_email', {
    ...defaultsOf(pew_email),
    enable_email: true,
    plc_poll: 1,
    transfermode_ssl: false,
    server_smtp: LOOPBACK,
    server_smtp_port: port,
    server_user: 'plc@example.com',
    server_password: 'Secret-1',
    sender: '<plc@example.com>',
    recipients: '<a@example.com>, <b@example.com>',
    subject: 'Tank report',
    store_send: storeSend,
  } satisfies Email);
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.services.settled();
}

beforeAll(async () => {
  port = await freePort();
  smtp = await startSmtp();
  rig = await startMqttRig();
  await saveEmail(true);
  const dir = join(rig.d.dataDir, 'volumes', 'internal', 'log');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'tank_20261125.csv'), 'Date,Time,v\r\n2026-11-25,23:00:00,7\r\n');
  await new Promise((res) => setTimeout(res, 20));
  await writeFile(join(dir, 'tank_20261126.csv'), 'Date,Time,v\r\n2026-11-26,10:00:00,8\r\n');
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  await new Promise((r) => (smtp ? smtp.close(() => r(undefined)) : r(undefined)));
});

describe('e-mail engine', () => {
  it("sends the PLC's text to the recipients with the section's subject and, store_send on, the newest log file attached", async () => {
    const before = ask(EMAIL_BLOCK.requests.send!, 'Level high: 21.5 m');
    await until(() => block().counter === before + 1, 30_000, 'mail sent');
    expect(block()).toMatchObject({ request: 0, state: STATE.done, error: 0, queue_waiting: 0 });
    const m = mails.at(-1)!;
    expect(m).toMatchObject({ from: 'plc@example.com', to: ['a@example.com', 'b@example.com'], user: 'plc@example.com' });
    expect(m.data).toMatch(/^Subject: Tank report\r$/m);
    expect(m.data).toMatch(/^From: plc@example.com\r$/m);
    expect(m.data).toMatch(/^To: a@example.com, b@example.com\r$/m);
    expect(m.data).toContain('Level high: 21.5 m');
    expect(m.data).toMatch(/filename=tank_20261126\.csv/);
    expect(m.data).not.toMatch(/filename=tank_20261125\.csv/);
    expect(m.data).toContain(Buffer.from('Date,Time,v\r\n2026-11-26,10:00:00,8\r\n').toString('base64'));
  });

  it("takes the subject from the text's first line; an unknown request (3, the former +4) is bad_request and sends nothing", async () => {
    let before = ask(EMAIL_BLOCK.requests.send_subject_from_text!, 'Pump 2 stopped\nat 10:15, pressure 0.2 bar');
    await until(() => block().counter === before + 1, 30_000, 'mail sent');
    expect(mails.at(-1)!.data).toMatch(/^Subject: Pump 2 stopped\r$/m);
    expect(mails.at(-1)!.data).toContain('at 10:15, pressure 0.2 bar');
    const n = mails.length;
    for (const request of [3, 1 | 4]) {
      before = ask(request, 'x');
      await until(() => block().counter === before + 1, 30_000, 'refusal');
      expect(block(), `request ${request}`).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.bad_request });
    }
    expect(mails.length).toBe(n);
  });

  it('store_send on without any log file: the mail still goes, its text says why nothing is attached', async () => {
    const dir = join(rig.d.dataDir, 'volumes', 'internal', 'log');
    await rename(dir, `${dir}-away`);
    await mkdir(dir); // the logger's folder, with no file in it yet
    try {
      const before = ask(EMAIL_BLOCK.requests.send!, 'Alarm: pump 3');
      await until(() => block().counter === before + 1, 30_000, 'mail sent');
      expect(block()).toMatchObject({ state: STATE.done, error: 0 });
      expect(mails.at(-1)!.data).toContain('Alarm: pump 3');
      const text = mails.at(-1)!.data.replace(/=\r\n/g, ''); // quoted-printable lines joined
      expect(text, text).toContain(`(${ATTACH_NOTE}: there is no log file yet)`);
      expect(mails.at(-1)!.data).not.toMatch(/filename=/);
    } finally {
      await rm(dir, { recursive: true });
      await rename(`${dir}-away`, dir);
    }
  });

  it('store_send off: the mail carries only its text', async () => {
    await saveEmail(false);
    const before = ask(EMAIL_BLOCK.requests.send!, 'no files please');
    await until(() => block().counter === before + 1, 30_000, 'mail sent');
    expect(block()).toMatchObject({ state: STATE.done, error: 0 });
    expect(mails.at(-1)!.data).toContain('no files please');
    expect(mails.at(-1)!.data).not.toMatch(/filename=/);
  });

  it('a server that is down keeps the mail queued (store_send off as well) and sends it when it is back', async () => {
    await new Promise((r) => smtp!.close(() => r(undefined)));
    smtp = undefined;
    const before = ask(EMAIL_BLOCK.requests.send!, 'queued while down');
    await until(() => block().queue_waiting === 1 && block().state === STATE.waiting, 30_000, 'queued');
    expect(block().error).toBe(SERVICE_ERROR.refused);
    smtp = await startSmtp();
    await until(() => block().counter === before + 1, 60_000, 'sent after the server came back');
    expect(mails.at(-1)!.data).toContain('queued while down');
    expect(block()).toMatchObject({ state: STATE.done, error: 0, queue_waiting: 0 });
  });
});
