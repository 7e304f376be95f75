// GET /metrics and its scrape token over the API (docs/monitoring.md): off as a path the unit does
// not know; the token's routes for the administrator only (role, CSRF, bad tokens refused with
// nothing stored), the token shown once and only its hash on disk, audited; no, wrong and garbage
// bearers and the session cookie alone refused; wrong tokens counted with failed logins against the
// address; the link series equal to GET /config/com_status; the token kept across a restart;
// cleared, off again.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkStatusView } from '../../device/model/plctest.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { METRICS_TOKEN_FILE } from '../../device/system/metrics-token.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { ADMIN, type Client, startTestDaemon, type TestDaemon, USER } from '../support/daemon.ts';
import { parseExposition, sampleValue } from '../support/exposition.ts';
import { LOOPBACK } from '../support/ports.ts';

const FRAMING = { baud: 19200, bits: 8 as const, parity: 'odd' as const, stopbits: 1 as const };
const wire = new SerialPlcAttachment(new VirtualPlc({ model: 'FP-XH' }), { protocol: 'MEWTOCOL', framing: FRAMING });
const serial = { virtualPorts: { COM1: (s: SerialSettings): ByteChannel => wire.open(s) } };
// passwords of this file's accounts are hashed cheaply: the failed logins below are about counting
const HASH_COST = { N: 1 << 10, r: 8, p: 1 };

let dataDir: string;
let d: TestDaemon;
let admin: Client;
let token = '';

/** the series of a link's stats: name, field of com_status, factor */
const LINK_SERIES: [string, string, number][] = [
  ['communicator_link_requests_total', 'requests', 1],
  ['communicator_link_errors_total', 'errors', 1],
  ['communicator_link_timeouts_total', 'timeouts', 1],
  ['communicator_link_retries_total', 'retries', 1],
  ['communicator_link_answers_total', 'answers', 1],
  ['communicator_link_late_answers_total', 'lateAnswers', 1],
  ['communicator_link_mismatched_answers_total', 'mismatched', 1],
  ['communicator_link_resyncs_total', 'resyncs', 1],
  ['communicator_link_check_errors_total', 'checkErrors', 1],
  ['communicator_link_invalid_frames_total', 'invalidFrames', 1],
  ['communicator_link_plc_errors_total', 'plcErrors', 1],
  ['communicator_link_reconnects_total', 'reconnects', 1],
  ['communicator_link_sent_bytes_total', 'bytesOut', 1],
  ['communicator_link_received_bytes_total', 'bytesIn', 1],
  ['communicator_link_busy_seconds_total', 'busyMs', 1 / 1000],
  ['communicator_link_busy_ratio', 'busyShare', 1],
  ['communicator_link_waiting_requests', 'waiting', 1],
  ['communicator_link_counters_start_time_seconds', 'since', 1 / 1000],
];

const scrape = (bearer?: string, from?: string, extra: Record<string, string> = {}) =>
  d.client(from).request('GET', '/metrics', undefined, { ...(bearer === undefined ? {} : { authorization: `Bearer ${bearer}` }), ...extra });
const auditActions = async () => ((await admin.get('/config/audit?size=200')).body.entries as { action: string; detail?: any }[]).reverse();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'metrics-'));
  d = await startTestDaemon({ dataDir, serial, hashCost: HASH_COST });
  admin = await d.admin();
  await d.user(); // the user role's account
  const pew = (await admin.get('/config/pew')).body as Pew;
  Object.assign(pew.interfaces.find((i) => i.name === 'COM1')!, { enabled: true, baudrate: 19200, protocol: 'MEWTOCOL', timeout: 2000 });
  expect((await admin.post('/config/pew', pew)).status).toBe(200);
  await d.ctx.com.settled();
});
afterAll(async () => {
  await d?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('GET /metrics while no token is set', () => {
  it('answers 404 exactly as a path the unit does not know, whatever it is sent', async () => {
    const unknown = await d.client().get('/no-such-route');
    for (const r of [await scrape(), await scrape('anything-at-all-1234'), await admin.get('/metrics')]) {
      expect(r.status).toBe(404);
      expect(r.text).toBe(unknown.text);
      expect(r.headers.get('content-type')).toBe(unknown.headers.get('content-type'));
      expect(r.headers.get('www-authenticate')).toBeNull();
    }
    expect((await admin.get('/config/metrics_token')).body).toEqual({ set: false });
  });
});

describe('the scrape token', () => {
  it('is the administrator’s: the user role gets 403, no session 401, a missing or wrong CSRF token 403', async () => {
    const user = await d.user();
    for (const [path, body] of [
      ['/config/metrics_token', {}],
      ['/config/metrics_token', { token: 'a-token-of-the-user-role' }],
      ['/config/metrics_token/clear', {}],
    ] as const) {
      const r = await user.post(path, body);
      expect(r.status, path).toBe(403);
      expect(r.body.error.code).toBe('forbidden');
      expect((await d.client().post(path, body)).status).toBe(401);
    }
    expect((await user.get('/config/metrics_token')).status).toBe(403);
    expect((await d.client().get('/config/metrics_token')).status).toBe(401);
    // the administrator's session without its CSRF token, or with another one
    const noCsrf = d.client();
    noCsrf.cookie = admin.cookie;
    for (const headers of [{}, { 'x-csrf-token': 'forged' }] as Record<string, string>[]) {
      const r = await noCsrf.post('/config/metrics_token', {}, headers);
      expect(r.status).toBe(403);
      expect(r.body.error.code).toBe('csrf');
    }
    // a page of another site
    expect((await admin.post('/config/metrics_token', {}, { origin: 'http://evil.example' })).body.error.code).toBe('origin_not_allowed');
    expect((await admin.get('/config/metrics_token')).body).toEqual({ set: false });
    expect(d.ctx.metricsToken.isSet()).toBe(false);
  });

  it('refuses a token that is too short, too long, not visible ASCII or no string, and stores nothing', async () => {
    const cases: [unknown, string][] = [
      [{ token: '' }, 'required'],
      [{ token: 'fifteen-chars15' }, 'too_short'],
      [{ token: 'x'.repeat(257) }, 'too_long'],
      [{ token: 'with a space in it 1234' }, 'invalid_characters'],
      [{ token: 'tab\there-1234567890' }, 'invalid_characters'],
      [{ token: 'umlaut-ä-1234567890' }, 'invalid_characters'],
      [{ token: 1234567890123456789 }, 'type'],
      [{ secret: 'x'.repeat(20) }, 'unknown_key'],
    ];
    for (const [body, code] of cases) {
      const r = await admin.post('/config/metrics_token', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
      expect(r.body.error.issues.map((i: { code: string }) => i.code)).toContain(code);
    }
    expect((await admin.post('/config/metrics_token', ['token'])).status).toBe(400);
    expect((await admin.get('/config/metrics_token')).body).toEqual({ set: false });
    await expect(stat(join(dataDir, METRICS_TOKEN_FILE))).rejects.toThrow();
  });

  it('is generated and shown once; afterwards only whether it is set and since when; on disk only its hash', async () => {
    const r = await admin.post('/config/metrics_token', {});
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ set: true, since: expect.any(String), token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    token = r.body.token;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const status = await admin.get('/config/metrics_token');
    expect(status.body).toEqual({ set: true, since: r.body.since });
    expect(status.text).not.toContain(token);
    const file = join(dataDir, METRICS_TOKEN_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = await readFile(file, 'utf8');
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(Buffer.from(token).toString('base64'));
    // a second one replaces it
    const again = await admin.post('/config/metrics_token', {});
    expect(again.body.token).not.toBe(token);
    expect((await scrape(token)).status).toBe(401);
    token = again.body.token;
    expect((await scrape(token)).status).toBe(200);
  });
});

describe('GET /metrics with a token set', () => {
  it('refuses without the token, with another scheme, a wrong token or the session cookie alone: 401 with WWW-Authenticate: Bearer', async () => {
    const replies = [
      await scrape(undefined, '127.0.6.1'),
      await scrape(`${token}x`, '127.0.6.1'),
      await scrape(token.slice(1), '127.0.6.1'),
      await scrape(undefined, '127.0.6.2', { authorization: `Basic ${Buffer.from(`admin:${token}`).toString('base64')}` }),
      await scrape(undefined, '127.0.6.2', { authorization: token }),
      await admin.get('/metrics'), // the administrator's session, no bearer
      await admin.request('GET', '/metrics', undefined, { authorization: 'Bearer wrong-token-but-a-session' }),
    ];
    for (const r of replies) {
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
      expect(r.body.error.code).toBe('unauthenticated');
      expect(r.text).not.toContain(token);
      expect(r.text).not.toContain('communicator_');
    }
  });

  it('answers the series in the text format; the link series are those of GET /config/com_status', async () => {
    // traffic on COM1, so that its counters are not 0
    expect((await admin.post('/config/plctest', { id: 0 })).body).toMatchObject({ ok: true });
    const before = (await admin.get('/config/com_status')).body.links as (LinkStatusView & { stats: Record<string, number> })[];
    const r = await scrape(token);
    const after = (await admin.get('/config/com_status')).body.links as typeof before;
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    const families = parseExposition(r.text);
    expect(sampleValue(families, 'communicator_build_info', { version: d.ctx.versions.app })).toBe(1);
    expect(before.length).toBe(5);
    // every number of a link's stats has its series (the last PLC error code once one came: the unit tests)
    expect(LINK_SERIES.map(([, field]) => field).sort()).toEqual(
      Object.keys(before[0]!.stats)
        .filter((k) => k !== 'lastPlcError')
        .sort(),
    );
    for (const [i, link] of before.entries()) {
      const labels = { link: link.name, protocol: link.protocol };
      expect(sampleValue(families, 'communicator_link_up', labels), link.name).toBe(link.state === 'up' ? 1 : 0);
      expect(sampleValue(families, 'communicator_link_state', { ...labels, state: link.state })).toBe(1);
      for (const [name, field, scale] of LINK_SERIES) {
        const [a, b] = [before[i]!.stats[field], after[i]!.stats[field]];
        const got = sampleValue(families, name, labels);
        if (a === undefined) {
          expect(got, `${link.name} ${field}`).toBeUndefined();
          continue;
        }
        // between the two answers taken around the scrape (a gauge may also fall)
        expect(got, `${link.name} ${field}`).toBeGreaterThanOrEqual(Math.min(a, b!) * scale - 1e-9);
        expect(got, `${link.name} ${field}`).toBeLessThanOrEqual(Math.max(a, b!) * scale + 1e-9);
      }
    }
    const com1 = { link: 'COM1', protocol: 'MEWTOCOL' };
    expect(sampleValue(families, 'communicator_link_up', com1)).toBe(1);
    expect(sampleValue(families, 'communicator_link_requests_total', com1)).toBeGreaterThan(0);
    expect(sampleValue(families, 'communicator_link_received_bytes_total', com1)).toBeGreaterThan(0);
    // the rest is there too: the process, the volumes, the logger and the services
    for (const name of ['process_resident_memory_bytes', 'process_cpu_seconds_total', 'nodejs_heap_used_bytes', 'communicator_logger_enabled'])
      expect(sampleValue(families, name), name).toBeGreaterThanOrEqual(0);
    expect(sampleValue(families, 'communicator_volume_free_bytes', { volume: 'internal' })).toBeGreaterThan(0);
    expect(sampleValue(families, 'communicator_service_enabled', { service: 'mqtt' })).toBe(0);
  });

  it('counts wrong tokens like failed logins of the address: 5 lock scrapes from it; with failed logins 10 lock the address', async () => {
    const a = '127.0.7.1';
    for (let i = 0; i < 5; i++) expect((await scrape(`wrong-token-number-${i}`, a)).status).toBe(401);
    const locked = await scrape(token, a); // the right token, too late
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('locked');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await scrape(token, '127.0.7.2')).status).toBe(200); // another address scrapes on
    const audit = await auditActions();
    expect(audit.find((e) => e.action === 'lockout' && e.detail?.route === '/metrics')).toMatchObject({ detail: { scope: 'account_address', minutes: 10 } });

    // one address: 4 wrong tokens and 6 failed logins are its 10 failures; then its logins are locked too
    const b = '127.0.7.3';
    for (let i = 0; i < 4; i++) expect((await scrape(`wrong-token-number-${i}`, b)).status).toBe(401);
    const wrong = (username: string) => d.client(b).post('/rest/api/v1/authentication', { username, password: 'Wrong-Passw0rd1' });
    for (const name of ['admin', 'admin', 'admin', 'admin', USER.username, 'nobody']) expect((await wrong(name)).status).toBe(401);
    const login = await d.client(b).post('/rest/api/v1/authentication', ADMIN);
    expect(login.status).toBe(429);
    expect(login.body.error.code).toBe('locked');
    expect((await scrape(token, b)).status).toBe(429);
  });

  it('answers garbage in the Authorization header with 401 (the HTTP parser refuses control characters with 400), and scrapes on', async () => {
    let seed = 20261203;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const bytes = (n: number, pick: () => number) => Buffer.from(Array.from({ length: n }, pick));
    const visible = () => 0x20 + Math.floor(random() * 95);
    const high = () => (random() < 0.7 ? visible() : 0x80 + Math.floor(random() * 128));
    const control = () => [0, 1, 8, 11, 12, 27, 31, 127][Math.floor(random() * 8)]!;
    const lengths = [0, 1, 2, 7, 43, 44, 255, 256, 257, 1000, 8000];
    const garbage: Buffer[] = [
      ...lengths.map((n) => bytes(n, visible)),
      ...lengths.map((n) => Buffer.concat([Buffer.from('Bearer '), bytes(n, high)])),
      ...lengths.map((n) => Buffer.concat([Buffer.from('bearer\t'), bytes(n, visible)])),
      ...Array.from({ length: 40 }, () => bytes(1 + Math.floor(random() * 300), high)),
      Buffer.from(`Bearer ${token} ${token}`),
      Buffer.from(`Bearer ${token.slice(0, -1)}`),
      Buffer.from(`Bearer${token}`),
      Buffer.from('Bearer '),
      Buffer.from(`Basic ${token}`),
      Buffer.from(`Bearer ${'\u00e9'.repeat(10)}`, 'latin1'),
    ];
    const refused = Array.from({ length: 12 }, (_, i) => Buffer.concat([Buffer.from('Bearer '), bytes(3 + i, visible), bytes(1, control), bytes(5, visible)]));
    let n = 0;
    // each source address sends at most 4 of them: they stay below the lockout's limits, so every answer is the token's own
    const from = () => `127.8.${Math.floor(n++ / 4)}.1`;
    for (const g of garbage) expect(await rawScrape(d.port, from(), g), JSON.stringify(g.toString('latin1').slice(0, 60))).toBe(401);
    for (const g of refused) expect(await rawScrape(d.port, from(), g)).toBe(400);
    expect((await scrape(token, from())).status).toBe(200);
    expect((await admin.get('/config/com_status')).status).toBe(200);
  });
});

describe('the token across a restart, set by hand, and cleared', () => {
  it('survives a restart of the daemon', async () => {
    const since = (await admin.get('/config/metrics_token')).body.since;
    await d.stop();
    d = await startTestDaemon({ dataDir, serial, hashCost: HASH_COST });
    admin = await d.admin();
    expect((await admin.get('/config/metrics_token')).body).toEqual({ set: true, since });
    expect((await scrape(token)).status).toBe(200);
    expect((await scrape(`${token}-`, '127.0.9.1')).status).toBe(401);
  });

  it('takes a token of the administrator’s own, never shown back; the one before it no longer opens /metrics', async () => {
    const own = 'plant-7_units:all.scrape~2026';
    const r = await admin.post('/config/metrics_token', { token: own });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ set: true, since: expect.any(String) });
    expect((await scrape(own)).status).toBe(200);
    expect((await scrape(token, '127.0.9.2')).status).toBe(401);
    token = own;
  });

  it('is cleared by the administrator: 404 again, and every change is in the audit log', async () => {
    const r = await admin.post('/config/metrics_token/clear', {});
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ set: false });
    expect((await scrape(token)).status).toBe(404);
    await expect(stat(join(dataDir, METRICS_TOKEN_FILE))).rejects.toThrow();
    // clearing again changes nothing and writes no entry
    expect((await admin.post('/config/metrics_token/clear', {})).body).toEqual({ set: false });
    const changes = (await auditActions()).filter((e) => e.action.startsWith('metrics_token'));
    expect(changes.map((e) => [e.action, e.detail])).toEqual([
      ['metrics_token_set', { generated: true }],
      ['metrics_token_set', { generated: true }],
      ['metrics_token_set', { generated: false }],
      ['metrics_token_cleared', undefined],
    ]);
    expect(JSON.stringify(await auditActions())).not.toContain(token);
  });
});

/** GET /metrics over a connection of its own from `localAddress`, the header's bytes as they are; the answer's status. */
function rawScrape(port: number, localAddress: string, authorization: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: LOOPBACK, port, localAddress });
    let got = '';
    s.setEncoding('latin1');
    s.on('data', (c: string) => {
      got += c;
    });
    s.on('error', reject);
    s.on('close', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(got);
      if (m) resolve(Number(m[1]));
      else reject(new Error(`no HTTP answer: ${JSON.stringify(got.slice(0, 100))}`));
    });
    s.on('connect', () => {
      s.write(
        Buffer.concat([
          Buffer.from(`GET /metrics HTTP/1.1\r\nHost: ${LOOPBACK}:${port}\r\nAuthorization: `),
          authorization,
          Buffer.from('\r\nConnection: close\r\n\r\n'),
        ]),
      );
    });
  });
}
