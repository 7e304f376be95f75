// E-mail client (spec §3 "E-mail (pew_email)", §5 addresses and port 0, §9 control register 230 + 7).
import type * as v from 'valibot';
import { certName, controlRegister } from '../common.ts';
import { bool, choice, EMAIL_LIST_RE, EMAIL_ONE_RE, hostText, num, obj, pattern, remotePort, secret, text } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { defineSection } from '../section.ts';

export const SMTP_REGISTERS = 7; // spec §9: SMTP control register offset
export const SUBJECT_MAX = 128; // spec §9
export const ADDRESS_MAX = 80; // spec §9: e-mail address 80
export const RECIPIENTS_MAX = 160; // spec §9
// how the unit logs in before sending: SMTP AUTH (0), POP3 before SMTP (1), IMAP before SMTP (2)
export const EMAIL_MODES = [0, 1, 2] as const;
export const SMTP_ONLY = 0;

export const emailSchema = obj({
  enable_email: bool(false),
  plc_control_dt: controlRegister(230, SMTP_REGISTERS), // spec §9: default 230
  plc_poll: num(1, 120, 1), // spec §9: poll time 1-120 s
  emailmode: choice(EMAIL_MODES, SMTP_ONLY),
  store_send: bool(false), // the newest file of each log file of the data logger attached to every mail (docs/services.md)
  transfermode_ssl: bool(true), // spec §5 warns about SMTP without SSL/TLS
  transfermode_verify_ssl: bool(true), // the server certificate must verify
  server_smtp: hostText(''),
  server_smtp_port: remotePort(0, true), // spec §5: 0 = autodetect
  server_pop3imap: hostText(''),
  server_port_pop3imap: remotePort(0, true), // spec §5: 0 = autodetect
  server_user: text(ADDRESS_MAX),
  server_password: secret(),
  recipients: text(RECIPIENTS_MAX, '', pattern(EMAIL_LIST_RE, 'invalid_email')), // spec §5: <a@b>, <c@d>
  sender: text(ADDRESS_MAX, '', pattern(EMAIL_ONE_RE, 'invalid_email')),
  subject: text(SUBJECT_MAX),
  proxy_ip: hostText(''), // empty = no proxy
  proxy_port: remotePort(1080), // SOCKS
  ca: certName('ca'),
  client: certName('client'),
  key: certName('key'),
});
export type Email = v.InferOutput<typeof emailSchema>;

function rules(e: Email): Issue[] {
  if (!e.enable_email) return [];
  const needed = ['server_smtp', 'sender', 'recipients'] as const;
  const out = needed.filter((f) => e[f] === '').map((f) => issue(f, 'required'));
  if (e.emailmode !== SMTP_ONLY && e.server_pop3imap === '') out.push(issue('server_pop3imap', 'required'));
  return out;
}

export const pew_email = defineSection({
  key: 'pew_email',
  index: 6,
  schema: emailSchema,
  passwords: ['server_password'],
  targets: { server_password: ['server_smtp', 'server_smtp_port', 'server_pop3imap', 'server_port_pop3imap', 'proxy_ip', 'proxy_port'] }, // security.md SEC-2: where each password goes
  rules,
  registers: (e) => (e.enable_email ? [{ path: 'plc_control_dt', start: e.plc_control_dt, length: SMTP_REGISTERS }] : []),
});
