// REST API and HTTP server (spec §3 "REST (pew_api)", §5 listening ports and IP ranges).
import * as v from 'valibot';
import { bool, ipText, listenPort, obj } from '../fields.ts';
import { defineSection } from '../section.ts';
import { ipRangeIssues } from '../common.ts';

export const REST_PORT = 8443;

export const restSchema = obj({
  api_enable: bool(false),
  ip1: ipText('0.0.0.0'), // allowed clients ip1..ip2; 0.0.0.0 - 0.0.0.0 = all (spec §5)
  ip2: ipText('0.0.0.0'),
  http_port: listenPort(REST_PORT), // spec §5: 1025-65535, not an unallowed port
  http_server: bool(false), // also serve the uploaded HTTP files on the same port
  use_encryption: bool(true), // HTTPS
  use_cors: bool(false),
});
export type Rest = v.InferOutput<typeof restSchema>;

/** The port is open when the API or the file server is on. */
const listening = (r: Rest) => r.api_enable || r.http_server;

export const pew_api = defineSection({
  key: 'pew_api',
  index: 7,
  schema: restSchema,
  passwords: [],
  rules: (r) => ipRangeIssues(r.ip1, r.ip2, 'ip1', 'ip2', listening(r)),
  ports: (r) => (listening(r) ? [{ path: 'http_port', port: r.http_port }] : []),
});
