// HTTP client (spec §3 "HTTP client (pew_httpc)", §9 control register 240 + 14).
import * as v from 'valibot';
import { certName, controlRegister, httpUrl } from '../common.ts';
import { bool, choice, hostText, list, num, obj, remotePort, secret, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import { defineSection } from '../section.ts';

export const HTTP_REGISTERS = 14; // spec §9: HTTP control register offset
export const URL_MAX = 512; // a server URL with its path

/** The Content-Type of a body from PLC memory, by the section's `content_type` (octet-stream: as before the choice existed). */
export const CONTENT_TYPES = {
  'octet-stream': 'application/octet-stream',
  json: 'application/json',
  text: 'text/plain; charset=utf-8',
  form: 'application/x-www-form-urlencoded',
} as const;
export type ContentTypeName = keyof typeof CONTENT_TYPES;

export const HEADERS_MAX = 4;
export const HEADER_NAME_MAX = 64;
export const HEADER_VALUE_MAX = 512;
/** RFC 7230 §3.2.6: a header name is a token of tchar */
const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** RFC 7230 §3.2: field-content is visible characters, spaces and tabs (obs-text 0x80-0xFF too); never CR, LF or NUL */
const HEADER_VALUE_RE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** headers the unit sets itself: the request would be ambiguous or broken with a second one */
export const RESERVED_HEADERS = ['Host', 'Content-Length', 'Content-Type', 'Transfer-Encoding', 'Connection'] as const;
const reserved = (name: string) => RESERVED_HEADERS.find((r) => r.toLowerCase() === name.toLowerCase());

export const headerSchema = obj({
  name: v.optional(
    v.pipe(
      v.string(msg('type', { expected: 'string' })),
      v.nonEmpty<string, string>(msg('required')),
      v.maxLength<string, number, string>(HEADER_NAME_MAX, msg('too_long', { max: HEADER_NAME_MAX })),
      v.check((s: string) => s === '' || TOKEN_RE.test(s), msg('header_name_invalid')),
      v.check(
        (s: string) => !reserved(s),
        (i) => msg('header_reserved', { name: reserved(String(i.input)) ?? String(i.input) }),
      ),
    ),
    '',
  ),
  value: v.optional(
    v.pipe(
      v.string(msg('type', { expected: 'string' })),
      v.maxLength<string, number, string>(HEADER_VALUE_MAX, msg('too_long', { max: HEADER_VALUE_MAX })),
      v.regex<string, string>(HEADER_VALUE_RE, msg('header_value_invalid')),
    ),
    '',
  ),
  /** the value is a secret: masked on read like a password, kept when the mask comes back */
  secret: bool(false),
});
export type HttpHeader = v.InferOutput<typeof headerSchema>;

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
  content_type: choice(Object.keys(CONTENT_TYPES) as ContentTypeName[], 'octet-stream'),
  headers: list(headerSchema, HEADERS_MAX),
  ca: certName('ca'),
  client: certName('client'),
  key: certName('key'),
});
export type Httpc = v.InferOutput<typeof httpcSchema>;

function rules(h: Httpc): Issue[] {
  return [...urlIssues(h), ...headerIssues(h)];
}

function urlIssues(h: Httpc): Issue[] {
  if (h.server_addr === '') return h.enable_httpc ? [issue('server_addr', 'required')] : [];
  // a ticked "SSL" must never end in a plain-text request, nor an https URL in an unticked one
  const scheme = h.transfermode_ssl ? 'https' : 'http';
  return h.server_addr.startsWith(`${scheme}:`) ? [] : [issue('server_addr', 'invalid_value', { allowed: [`${scheme}://`] })];
}

/** A header name once (names compare without case); Authorization is the unit's own while it logs in with server_user. */
function headerIssues(h: Httpc): Issue[] {
  const out: Issue[] = [];
  const seen = new Set<string>();
  h.headers.forEach((x, i) => {
    const name = x.name.toLowerCase();
    if (seen.has(name)) out.push(issue(`headers.${i}.name`, 'duplicate'));
    else if (name === 'authorization' && h.server_user !== '') out.push(issue(`headers.${i}.name`, 'header_reserved', { name: 'Authorization' }));
    seen.add(name);
  });
  return out;
}

export const pew_httpc = defineSection({
  key: 'pew_httpc',
  index: 5,
  schema: httpcSchema,
  passwords: ['server_password', 'proxy_password'],
  secretLists: { headers: { key: 'name', value: 'value', flag: 'secret' } },
  // security.md SEC-2: where each password goes; a secret header goes where the requests go
  targets: {
    server_password: ['server_addr', 'proxy_addr', 'proxy_port'],
    proxy_password: ['proxy_addr', 'proxy_port'],
    headers: ['server_addr', 'proxy_addr', 'proxy_port'],
  },
  rules,
  registers: (h) => (h.enable_httpc ? [{ path: 'plc_control_dt', start: h.plc_control_dt, length: HTTP_REGISTERS }] : []),
});
