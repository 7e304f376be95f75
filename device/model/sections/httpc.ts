// HTTP client (spec §3 "HTTP client (pew_httpc)", §9 control register 240 + 14).
import type * as v from 'valibot';
import { certName, controlRegister, httpUrl } from '../common.ts';
import { bool, hostText, num, obj, remotePort, secret, text } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { defineSection } from '../section.ts';

export const HTTP_REGISTERS = 14; // spec §9: HTTP control register offset
export const URL_MAX = 512; // a server URL with its path

export const httpcSchema = obj({
  enable_httpc: bool(false),
  plc_control_dt: controlRegister(240, HTTP_REGISTERS), // spec §9: default 240
  plc_poll: num(1, 120, 1), // spec §9: poll time 1-120 s
  server_addr: httpUrl(URL_MAX), // http(s)://host[:port][/path]
  transfermode_ssl: bool(true), // HTTPS; the URL's scheme must agree
  transfermode_verify_ssl: bool(true), // the server certificate must verify
  server_user: text(64),
  server_password: secret(),
  proxy_addr: hostText(''), // empty = no proxy
  proxy_port: remotePort(8080),
  proxy_user: text(64),
  proxy_password: secret(),
  ca: certName('ca'),
  client: certName('client'),
  key: certName('key'),
});
export type Httpc = v.InferOutput<typeof httpcSchema>;

function rules(h: Httpc): Issue[] {
  if (h.server_addr === '') return h.enable_httpc ? [issue('server_addr', 'required')] : [];
  // a ticked "SSL" must never end in a plain-text request, nor an https URL in an unticked one
  const scheme = h.transfermode_ssl ? 'https' : 'http';
  return h.server_addr.startsWith(`${scheme}:`) ? [] : [issue('server_addr', 'invalid_value', { allowed: [`${scheme}://`] })];
}

export const pew_httpc = defineSection({
  key: 'pew_httpc',
  index: 5,
  schema: httpcSchema,
  passwords: ['server_password', 'proxy_password'],
  targets: { server_password: ['server_addr', 'proxy_addr', 'proxy_port'], proxy_password: ['proxy_addr', 'proxy_port'] }, // security.md SEC-2: where each password goes
  rules,
  registers: (h) => (h.enable_httpc ? [{ path: 'plc_control_dt', start: h.plc_control_dt, length: HTTP_REGISTERS }] : []),
});
