// REST API and HTTP server (spec §3 "REST (pew_api)", §5 listening ports and IP ranges).
import * as v from 'valibot';
import { ipRangeIssues } from '../common.ts';
import { bool, HOST_RE, ipText, listenPort, obj, PASSWORD_MASK, text } from '../fields.ts';
import { msg } from '../issues.ts';
import { defineSection } from '../section.ts';
import { WRITE_AREAS_MAX, writeAreasProblem } from '../write-areas.ts';

export const REST_PORT = 8443;
/** security.md HOST-1: a key shorter than this is guessable; visible ASCII only (it travels in a header) */
export const API_KEY_MIN = 16;
export const API_KEY_MAX = 128;
export const HOST_NAMES_MAX = 256;

/** The names of `host_names`: separated by commas or spaces. */
export const hostNamesOf = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);

export const restSchema = obj({
  api_enable: bool(false),
  ip1: ipText('0.0.0.0'), // allowed clients ip1..ip2; 0.0.0.0 - 0.0.0.0 = all (spec §5)
  ip2: ipText('0.0.0.0'),
  http_port: listenPort(REST_PORT), // spec §5: 1025-65535, not an unallowed port
  http_server: bool(false), // also serve the uploaded HTTP files on the same port
  use_encryption: bool(true), // HTTPS
  use_cors: bool(false),
  // not in spec §3 (security.md HOST-1): writes through the API need this key when it is set
  // (`X-API-Key` or `Authorization: Bearer`); masked like a password
  api_key: text(
    API_KEY_MAX,
    '',
    v.check((s: string) => s === '' || s === PASSWORD_MASK || s.length >= API_KEY_MIN, msg('too_short', { min: API_KEY_MIN })),
    v.check((s: string) => /^[\x21-\x7e]*$/.test(s), msg('invalid_characters')),
  ),
  // not in spec §3 (security.md REST-1): without an API key the API writes nothing unless the
  // administrator allows writes without a key here (the §5 warning api_without_key then shows)
  keyless_writes: bool(false),
  // not in spec §3 (security.md REST-2): the PLC words the API may write, e.g. `DT100-199, WR0-3`;
  // none by default, so the API is read-only until the administrator lists them
  write_areas: text(
    WRITE_AREAS_MAX,
    '',
    v.rawCheck<string>(({ dataset, addIssue }) => {
      const p = dataset.typed ? writeAreasProblem(dataset.value) : undefined;
      if (p) addIssue({ message: msg(p.code, p.params) });
    }),
  ),
  // not in spec §3 (security.md HOST-1): the names (DNS) the unit's console and REST API are reached
  // by besides its addresses, its host name and localhost; any other Host header is refused
  host_names: text(
    HOST_NAMES_MAX,
    '',
    v.check((s: string) => hostNamesOf(s).every((n) => HOST_RE.test(n.replace(/\.$/, ''))), msg('invalid_host')),
  ),
});
export type Rest = v.InferOutput<typeof restSchema>;

/** The port is open when the API or the file server is on. */
const listening = (r: Rest) => r.api_enable || r.http_server;

export const pew_api = defineSection({
  key: 'pew_api',
  index: 7,
  schema: restSchema,
  passwords: ['api_key'],
  rules: (r) => ipRangeIssues(r.ip1, r.ip2, 'ip1', 'ip2', listening(r)),
  ports: (r) => (listening(r) ? [{ path: 'http_port', port: r.http_port }] : []),
});
