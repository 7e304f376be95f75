// POP3 before SMTP and IMAP before SMTP (spec §3 pew_email emailmode 1 and 2; docs/services.md
// "E-mail"): a minimal POP3 and IMAP responder started by the test record the unit's mailbox login
// and an smtp-server without AUTH records the mail, all on one timeline, with a virtual FP-XH on
// COM1 asking for the mails through its control block:
// - mode 1: USER and PASS of the section, QUIT, then the mail over SMTP without AUTH;
// - mode 2: LOGIN with the quoted user and password (the IMAP responder answers with an untagged
//   line first, as servers may), LOGOUT, then the mail;
// - a refused mailbox login ends the mail with auth_failed and nothing reaches SMTP;
// - a mailbox server that cannot be reached keeps the mail queued (refused).

import { createServer, type Server, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ERROR, STATE } from '../../device/model/blocks/convention.ts';
import { EMAIL_BLOCK } from '../../device/model/blocks/email.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { type Email, pew_email } from '../../device/model/sections/email.ts';
import { putBytes, readBlock, setBlock } from '../../sim/plc/blocks.ts';
import { freePort, freePorts, LOOPBACK } from '../support/ports.ts';
import { until } from './logger-rig.ts';
import { type MqttRig, startMqttRig } from './mqtt-rig.ts';

const DT = 230;
const USER = 'plc@example.com';
const PASSWORD = 'Secret "1"';
let rig: MqttRig;
const ports = { smtp: 0, pop3: 0, imap: 0 };
/** what the servers saw, in order */
const events: string[] = [];
const servers: { close(cb: () => void): unknown }[] = [];

/** A line server: `greeting` on connect, `answer` for each line (its lines written, `end` closes). */
function lineServer(greeting: string, answer: (line: string) => { lines: string[]; end?: boolean }): Server {
  return createServer((s: Socket) => {
    s.on('error', () => {});
    s.write(`${greeting}\r\n`);
    let buf = '';
    s.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      let i: number;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const a = answer(line);
        s.write(a.lines.map((l) => `${l}\r\n`).join(''));
        if (a.end) s.end();
      }
    });
  });
}

const pop3 = () =>
  lineServer('+OK POP3 ready', (line) => {
    events.push(`pop3 ${line}`);
    const [cmd, ...rest] = line.split(' ');
    if (cmd === 'USER') return { lines: ['+OK'] };
    if (cmd === 'PASS') return { lines: [rest.join(' ') === PASSWORD ? '+OK mailbox open' : '-ERR [AUTH] invalid login'] };
    if (cmd === 'QUIT') return { lines: ['+OK bye'], end: true };
    return { lines: ['-ERR unknown command'] };
  });

const imap = () =>
  lineServer('* OK IMAP4rev1 ready', (line) => {
    events.push(`imap ${line}`);
    const [tag, cmd] = line.split(' ');
    if (cmd === 'LOGIN') {
      const ok = line === `${tag} LOGIN "${USER}" "${PASSWORD.replace(/"/g, '\\"')}"`;
      return { lines: ok ? ['* CAPABILITY IMAP4rev1 IDLE', `${tag} OK LOGIN completed`] : [`${tag} NO [AUTHENTICATIONFAILED] invalid login`] };
    }
    if (cmd === 'LOGOUT') return { lines: ['* BYE logging out', `${tag} OK LOGOUT completed`], end: true };
    return { lines: [`${tag} BAD unknown command`] };
  });

const listen = (s: Server | SMTPServer, port: number) =>
  new Promise<void>((r) => {
    servers.push(s);
    s.listen(port, LOOPBACK, () => r());
  });

const block = () => readBlock(rig.plc.memory, EMAIL_BLOCK, DT);
async function mail(text: string): Promise<Record<string, number>> {
  const before = block().counter!;
  setBlock(rig.plc.memory, EMAIL_BLOCK, DT, { text_addr: 3000, text_len: putBytes(rig.plc.memory, 3000, text), request: EMAIL_BLOCK.requests.send! });
  await until(() => block().request === 0, 15_000, 'request taken');
  await until(() => block().counter === ((before + 1) & 0xffff), 30_000, 'mail finished');
  return block();
}

async function save(over: Partial<Email>): Promise<void> {
  const r = await rig.admin.post('/config/pew_email', {
    ...defaultsOf(pew_email),
    enable_email: true,
    plc_poll: 1,
    transfermode_ssl: false,
    server_smtp: LOOPBACK,
    server_smtp_port: ports.smtp,
    server_pop3imap: LOOPBACK,
    server_user: USER,
    server_password: PASSWORD,
    sender: `<${USER}>`,
    recipients: '<ops@example.com>',
    subject: 'Report',
    ...over,
  } satisfies Email);
  expect(r.status, r.text).toBe(200);
  await rig.d.ctx.services.settled();
}

beforeAll(async () => {
  [ports.smtp, ports.pop3, ports.imap] = (await freePorts(3)) as [number, number, number];
  const smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, cb) => {
      const parts: Buffer[] = [];
      stream.on('data', (c: Buffer) => parts.push(c));
      stream.on('end', () => {
        const from = (session.envelope.mailFrom as { address: string }).address;
        const text = Buffer.concat(parts).toString().includes('hello mailbox') ? 'text' : '?';
        events.push(`smtp mail from ${from} user ${String(session.user)}: ${text}`);
        cb();
      });
    },
  });
  await Promise.all([listen(smtp, ports.smtp), listen(pop3(), ports.pop3), listen(imap(), ports.imap)]);
  rig = await startMqttRig();
}, 60_000);

afterAll(async () => {
  await rig?.d.stop();
  for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
});

describe('e-mail: POP3 and IMAP before SMTP', () => {
  it('emailmode 1: the POP3 login (USER, PASS), QUIT, then the mail over SMTP without AUTH', async () => {
    await save({ emailmode: 1, server_port_pop3imap: ports.pop3 });
    events.length = 0;
    expect(await mail('hello mailbox')).toMatchObject({ state: STATE.done, error: 0 });
    expect(events).toEqual([`pop3 USER ${USER}`, `pop3 PASS ${PASSWORD}`, 'pop3 QUIT', `smtp mail from ${USER} user undefined: text`]);
  });

  it('emailmode 2: the IMAP LOGIN with the quoted user and password, LOGOUT, then the mail', async () => {
    await save({ emailmode: 2, server_port_pop3imap: ports.imap });
    events.length = 0;
    expect(await mail('hello mailbox')).toMatchObject({ state: STATE.done, error: 0 });
    expect(events).toEqual([`imap a1 LOGIN "${USER}" "Secret \\"1\\""`, 'imap a2 LOGOUT', `smtp mail from ${USER} user undefined: text`]);
  });

  it('a refused mailbox login is auth_failed and nothing reaches SMTP (POP3 and IMAP)', async () => {
    for (const [mode, port] of [
      [1, ports.pop3],
      [2, ports.imap],
    ] as const) {
      await save({ emailmode: mode, server_port_pop3imap: port, server_password: 'Wrong-1' });
      events.length = 0;
      expect(await mail('hello mailbox'), `mode ${mode}`).toMatchObject({ state: STATE.error, error: SERVICE_ERROR.auth_failed, queue_waiting: 0 });
      expect(events.filter((e) => e.startsWith('smtp'))).toEqual([]);
    }
  });

  it('a mailbox server that cannot be reached keeps the mail queued', async () => {
    await save({ emailmode: 2, server_port_pop3imap: await freePort() });
    events.length = 0;
    setBlock(rig.plc.memory, EMAIL_BLOCK, DT, { text_addr: 3000, text_len: putBytes(rig.plc.memory, 3000, 'later'), request: EMAIL_BLOCK.requests.send! });
    await until(() => block().queue_waiting === 1 && block().state === STATE.waiting, 30_000, 'queued');
    expect(block().error).toBe(SERVICE_ERROR.refused);
    expect(events).toEqual([]);
  });
});
