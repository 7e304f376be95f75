// The example downloads of the service pages (spec §2, §7) over a real socket: every kind is a zip
// an independent reader accepts, with the download headers, and a README that names the section's
// default control register as the model defines it; the route is guarded like every read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultsOf, type SectionDef } from '../../device/model/section.ts';
import { pew_email } from '../../device/model/sections/email.ts';
import { pew_ftpc } from '../../device/model/sections/ftpc.ts';
import { pew_httpc } from '../../device/model/sections/httpc.ts';
import { pew_mqtt } from '../../device/model/sections/mqtt.ts';
import { pew_nosql } from '../../device/model/sections/nosql.ts';
import { pew_api } from '../../device/model/sections/rest.ts';
import { pew_sql } from '../../device/model/sections/sql.ts';
import { pew_tls } from '../../device/model/sections/tls.ts';
import { EXAMPLE_KINDS } from '../../device/system/examples.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { unzipText } from '../support/unzip.ts';

const at = (def: SectionDef, field: string) => (defaultsOf(def) as Record<string, number>)[field]!;
const dt = (def: SectionDef, field = 'plc_control_dt') => `DT${at(def, field)}`;
// what each README must name: the default start of its control block (REST has none: its port)
const MUST_NAME: Record<(typeof EXAMPLE_KINDS)[number], string[]> = {
  library: [pew_mqtt, pew_ftpc, pew_sql, pew_httpc, pew_email, pew_tls, pew_nosql].map((d) => dt(d)),
  mqtt: [dt(pew_mqtt)],
  ftp: [dt(pew_ftpc)],
  sql: [dt(pew_sql)],
  httpc: [dt(pew_httpc)],
  email: [dt(pew_email)],
  rest: [String(at(pew_api, 'http_port'))],
  tls: [dt(pew_tls), dt(pew_tls, 'plc_status_dt')],
  mongo: [dt(pew_nosql)],
  influx: [dt(pew_nosql)],
};

let d: TestDaemon;
let user: Client;
beforeAll(async () => {
  d = await startTestDaemon();
  user = await d.user();
});
afterAll(() => d.stop());

// the test client reads bodies as text; a zip needs its bytes
async function download(c: Client, path: string) {
  const res = await fetch(c.base + path, { headers: c.cookie ? { cookie: c.cookie } : {} });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('GET /download/examples/<kind>.zip', () => {
  it.each(EXAMPLE_KINDS.map((k) => [k]))('%s downloads as a zip with its README', async (kind) => {
    const r = await download(user, `/download/examples/${kind}.zip`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/zip');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="example_${kind}.zip"`);
    const files = unzipText(r.bytes);
    const readme = files['README.txt']!;
    for (const word of MUST_NAME[kind]) expect(readme).toContain(word);
    if (kind !== 'library') expect(JSON.parse(files['settings.json']!)).toBeTypeOf('object');
  });

  it('the mqtt README states the block as the model defines it', async () => {
    const readme = unzipText((await download(user, '/download/examples/mqtt.zip')).bytes)['README.txt']!;
    expect(readme).toContain(`default ${dt(pew_mqtt)}`);
  });

  it('each settings.json saves as it is through POST /config/<section>', async () => {
    const admin = await d.admin();
    for (const kind of EXAMPLE_KINDS.filter((k) => k !== 'library')) {
      const json = JSON.parse(unzipText((await download(admin, `/download/examples/${kind}.zip`)).bytes)['settings.json']!);
      const key = {
        mqtt: pew_mqtt,
        ftp: pew_ftpc,
        sql: pew_sql,
        httpc: pew_httpc,
        email: pew_email,
        rest: pew_api,
        tls: pew_tls,
        mongo: pew_nosql,
        influx: pew_nosql,
      }[kind].key;
      const r = await admin.post(`/config/${key}`, json);
      expect(r.status, `${kind}: ${r.text}`).toBe(200);
    }
  });

  it('needs a session', async () => {
    const r = await d.client().get('/download/examples/mqtt.zip');
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe('unauthenticated');
  });

  it('an unknown example is 404 not_found, and so is an unknown download', async () => {
    for (const path of ['/download/examples/nope.zip', '/download/examples/mqtt', '/download/examples/mqtt.tar', '/download/examples/..%2Fmqtt.zip']) {
      const r = await user.get(path);
      expect(r.status, path).toBe(404);
      expect(r.body.error.code, path).toBe('not_found');
    }
    const other = await user.get('/download/other.csv');
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('not_found');
  });
});
