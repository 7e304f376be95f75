// Property test of every POST route over a real socket (security.md VAL-1, ERR-1): random JSON,
// mutated section defaults and raw non-JSON bodies, sent as the admin with the CSRF token.
//
// Invariants checked on every answer:
//  - the status is 2xx or 4xx, never a 5xx;
//  - an error is the envelope {error:{code, message, ...}} with a known code, no stack trace, no
//    file path, and no secret we sent (passwords carry the marker `Zq9!marker<n>`);
//  - a payload the schema must refuse (wrong type, out of range, unknown key, …) is refused;
//  - on a 4xx every file under <dataDir>/config is byte-for-byte unchanged (a missing file
//    stays missing) and so is the store in memory;
//  - on a 2xx only the saved sections' files changed, each file holds what the store holds and loads
//    back without repair, GET /config/<section> answers the same (secrets masked as '********'),
//    a secret sent as the mask keeps the stored one;
//  - the daemon keeps answering GET /rest/api/v1/authentication with 200 (checked periodically).
//
// FUZZ_SEED=<n> replays another seed (fast-check prints seed and path of a failure);
// FUZZ_SCALE=<x> multiplies the number of runs (e.g. 10 for a long soak).

import { readdir, readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../device/api/app.ts';
import { CONFIG_JSON_LIMIT } from '../../device/api/body.ts';
import type { RouteDef } from '../../device/api/route.ts';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { ERROR_CODES } from '../../device/model/issues.ts';
import { defaultsOf, loadSection, type SectionDef } from '../../device/model/section.ts';
import { anyText } from '../support/any-text.ts';
import { ADMIN, type Client, type Reply, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import {
  LIMIT,
  MARKER,
  marker,
  mustRefuse,
  RAW_BODIES,
  type RawBody,
  rawBodyArb,
  type SectionPayload,
  sectionPayloadArb,
  shapeOf,
  toJsonText,
} from './fuzz-payloads.ts';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261121;
const SCALE = process.env.FUZZ_SCALE ? Number(process.env.FUZZ_SCALE) : 1;
const runs = (n: number) => ({ numRuns: Math.max(1, Math.round(n * SCALE)), seed: SEED });

const AUTH = '/rest/api/v1/authentication';
const LOGOUT = `${AUTH}/logout`;
const SAVE_ALL = '/config';
const POSTS = ROUTES.filter((r) => r.method === 'POST');
const SECTION_AT = new Map(CONFIG_SECTIONS.map((def) => [`/config/${def.key}`, def]));
/** routes whose handler reads the body as JSON (others answer before or without reading it) */
const READS_JSON = new Set([...SECTION_AT.keys(), SAVE_ALL, AUTH]);
const concrete = (path: string) => path.replace(/:[A-Za-z_]+/g, 'x').replace(/\*/g, 'x');
/** routes that stream the raw body under caps of their own (uploads): the JSON body limit is not theirs */
const RAW_BODY = new Set(POSTS.filter((r) => r.rawBody).map((r) => concrete(r.path)));
/** the JSON body limit of each POST route: 64 KiB unless the route needs more (settings saves) */
const LIMIT_AT = new Map(POSTS.map((r) => [concrete(r.path), r.jsonLimit ?? LIMIT]));
const limitAt = (path: string) => LIMIT_AT.get(path) ?? LIMIT;
const sizeOf = (body: string | Uint8Array) => (typeof body === 'string' ? new TextEncoder().encode(body).length : body.length);
/** POST routes whose success is a file download (the settings backup, the audit log), not JSON; their refusals are JSON */
const FILE_ANSWER = new Map([
  ['/config/get_backup', /^application\/octet-stream/],
  ['/config/audit/download', /^application\/x-ndjson/],
]);
const json = (x: unknown) => JSON.stringify(x);
const mqttDefaults = () => defaultsOf(CONFIG_SECTIONS.find((s) => s.key === 'pew_mqtt')!) as Record<string, unknown>;
const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

// ---------------------------------------------------------------------------------------------
// sending and checking

/**
 * One request on a fresh connection that the client closes afterwards (Connection: close). Used for
 * bodies over the limit: the daemon answers 413 before reading them, and fetch's keep-alive pool
 * must not reuse such a connection (see the keep-alive test below). Write errors after the answer
 * (EPIPE, ECONNRESET) are ignored, as curl does.
 */
const RAW_FROM = 64 * 1024;

async function rawRequest(port: number, method: string, path: string, headers: Record<string, string>, body: Uint8Array, chunked: boolean): Promise<Reply> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const chunks: Buffer[] = [];
  socket.on('data', (b: Buffer) => chunks.push(b));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const head = [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  if (chunked) {
    for (let i = 0; i < body.length; i += 8192) {
      const c = body.subarray(i, i + 8192);
      socket.write(`${c.length.toString(16)}\r\n`);
      socket.write(c);
      socket.write('\r\n');
    }
    socket.write('0\r\n\r\n');
  } else socket.write(body);
  const timer = setTimeout(() => socket.destroy(), 10_000);
  await closed;
  clearTimeout(timer);
  const all = Buffer.concat(chunks);
  const split = all.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no HTTP answer to ${method} ${path} (${all.length} bytes)`);
  const lines = all.subarray(0, split).toString('latin1').split('\r\n');
  const status = Number(lines[0]!.split(' ')[1]);
  const h = new Headers();
  for (const l of lines.slice(1)) {
    const at = l.indexOf(':');
    if (at > 0) h.append(l.slice(0, at).trim(), l.slice(at + 1).trim());
  }
  let rest = all.subarray(split + 4);
  if (/chunked/i.test(h.get('transfer-encoding') ?? '')) {
    const parts: Buffer[] = [];
    for (;;) {
      const eol = rest.indexOf('\r\n');
      const n = parseInt(rest.subarray(0, eol).toString('latin1'), 16);
      if (!n) break;
      parts.push(rest.subarray(eol + 2, eol + 2 + n));
      rest = rest.subarray(eol + 2 + n + 2);
    }
    rest = Buffer.concat(parts);
  } else if (h.has('content-length')) rest = rest.subarray(0, Number(h.get('content-length')));
  const text = rest.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status, body: parsed, text, headers: h };
}

type Files = Map<string, Buffer>;

class Fuzzer {
  requests = 0;
  readonly statuses = new Map<number, number>();
  /** 2xx answers per route, and how many bodies the schema had to refuse */
  readonly accepted = new Map<string, number>();
  mustFail = 0;
  constructor(
    readonly d: TestDaemon,
    readonly admin: Client,
  ) {}

  get configDir() {
    return join(this.d.dataDir, 'config');
  }

  async files(): Promise<Files> {
    const out: Files = new Map();
    const names = await readdir(this.configDir).catch(() => [] as string[]);
    for (const n of names.sort()) out.set(n, await readFile(join(this.configDir, n)).catch(() => Buffer.from('<unreadable>')));
    return out;
  }

  /** A POST with exactly these bytes and this Content-Type (none when undefined), as `client`. */
  async post(path: string, body: string | Uint8Array, contentType: string | undefined, opts: { chunked?: boolean; client?: Client } = {}): Promise<Reply> {
    const c = opts.client ?? this.admin;
    const headers: Record<string, string> = { cookie: c.cookie, 'x-csrf-token': c.csrf };
    if (contentType !== undefined) headers['content-type'] = contentType;
    // a string body would get text/plain from fetch; bytes get no Content-Type of their own
    const data = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    // large bodies (at and over the limit) on a connection of their own: a route that answers before
    // reading a large body (415, 403) ends that connection, which fetch's pool reports as a failure
    if (data.length > RAW_FROM) {
      const r = await rawRequest(this.d.port, 'POST', path, headers, data, opts.chunked ?? false);
      await this.count(r.status);
      return r;
    }
    const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, redirect: 'manual' };
    if (opts.chunked) {
      init.body = new ReadableStream<Uint8Array>({
        start(ctl) {
          for (let i = 0; i < data.length; i += 8192) ctl.enqueue(data.subarray(i, i + 8192));
          ctl.close();
        },
      });
      init.duplex = 'half';
    } else init.body = data as Uint8Array<ArrayBuffer>;
    const res = await fetch(c.base + path, init);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    await this.count(res.status);
    return { status: res.status, body: parsed, text, headers: res.headers };
  }

  async get(path: string): Promise<Reply> {
    const r = await this.admin.get(path);
    await this.count(r.status);
    this.checkReply('GET', path, r);
    return r;
  }

  private async count(status: number): Promise<void> {
    this.requests++;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (this.requests % 25 === 0) await this.alive();
  }

  /** The daemon still serves: the session answers, the system log holds no secret. */
  async alive(): Promise<void> {
    const r = await this.admin.get(AUTH);
    this.requests++;
    expect(r.status, `GET ${AUTH} after ${this.requests} requests: ${r.text}`).toBe(200);
    expect(r.body.currentUser).toBe(ADMIN.username);
    const logs = await this.admin.get('/config/get_syslogs');
    this.requests++;
    expect(logs.status).toBe(200);
    expect(logs.text).not.toContain(MARKER);
  }

  /** ERR-1 and the status rule, for any answer. */
  checkReply(method: string, path: string, r: Reply, sent = ''): void {
    const what = `${method} ${path} → ${r.status} ${r.text.slice(0, 600)}\nsent: ${sent.slice(0, 600)}`;
    expect((r.status >= 200 && r.status < 300) || (r.status >= 400 && r.status < 500), `status not allowed: ${what}`).toBe(true);
    const file = r.status < 300 ? FILE_ANSWER.get(path.split('?')[0]!) : undefined;
    expect(r.headers.get('content-type') ?? '', `not JSON: ${what}`).toMatch(file ?? /^application\/json/);
    expect(r.text.includes(MARKER), `a secret is echoed: ${what}`).toBe(false);
    expect(r.text, `stack trace or path: ${what}`).not.toMatch(/\n\s+at |\bat [^"]*\(.*:\d+:\d+\)|\.(ts|js|mjs|cjs):\d|node_modules|\/work\/|\/tmp\//);
    if (r.status < 400) return;
    expect(isObject(r.body) && isObject(r.body.error), `no error envelope: ${what}`).toBe(true);
    const e = r.body.error as Record<string, unknown>;
    expect(typeof e.code, what).toBe('string');
    expect(ERROR_CODES as readonly string[], `unknown code: ${what}`).toContain(e.code);
    expect(typeof e.message, what).toBe('string');
    expect(Object.keys(r.body), what).toEqual(['error']);
    if (e.issues !== undefined) {
      expect(Array.isArray(e.issues), what).toBe(true);
      for (const i of e.issues as Record<string, unknown>[]) {
        expect(typeof i.path, what).toBe('string');
        expect(ERROR_CODES as readonly string[], what).toContain(i.code);
        if (i.section !== undefined) expect(typeof i.section, what).toBe('string');
      }
    }
  }

  /**
   * Sends one body to one route and checks everything the answer implies for the stored
   * configuration. `mustFail` says why the schema has to refuse the body, if it has to.
   */
  async exercise(
    path: string,
    body: string | Uint8Array,
    contentType: string | undefined,
    opts: { chunked?: boolean; mustFail?: string; note?: string } = {},
  ): Promise<Reply> {
    const filesBefore = await this.files();
    const storeBefore = this.d.ctx.store.all();
    const r = await this.post(path, body, contentType, { chunked: opts.chunked });
    const sent = `${contentType ?? '(no content type)'} ${typeof body === 'string' ? body : `<${body.length} bytes>`}${opts.note ? ` [${opts.note}]` : ''}`;
    this.checkReply('POST', path, r, sent);
    const size = typeof body === 'string' ? new TextEncoder().encode(body).length : body.length;
    if (RAW_BODY.has(path)) expect(r.status, `a raw body: ${sent.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
    else if (size > limitAt(path)) expect({ status: r.status, code: r.body?.error?.code }, sent.slice(0, 200)).toEqual({ status: 413, code: 'body_too_large' });
    else expect(r.status, `413 below the limit: ${sent.slice(0, 200)}`).not.toBe(413);
    if (opts.mustFail) this.mustFail++;
    if (r.status < 300) this.accepted.set(path, (this.accepted.get(path) ?? 0) + 1);
    if (opts.mustFail)
      expect(r.status >= 400, `accepted although ${opts.mustFail}: POST ${path} → ${r.status} ${r.text.slice(0, 300)}\nsent: ${sent.slice(0, 600)}`).toBe(true);

    const filesAfter = await this.files();
    if (r.status >= 300) {
      expect(
        changed(filesBefore, filesAfter),
        `files changed by a refused request: POST ${path} → ${r.status} ${r.text.slice(0, 300)}\nsent: ${sent.slice(0, 400)}`,
      ).toEqual([]);
      expect(json(this.d.ctx.store.all()), `store changed by a refused request: POST ${path}`).toBe(json(storeBefore));
      if (r.status === 400 && SECTION_AT.has(path) && Array.isArray(r.body.error.issues))
        for (const i of r.body.error.issues) expect(i.section, `issue of another section: ${r.text}`).toBe(SECTION_AT.get(path)!.key);
      return r;
    }

    // 2xx: which sections did this save?
    let saved: string[] = [];
    let sentValue: unknown;
    try {
      // decoded as the daemon decodes it (UTF-8, a BOM dropped)
      sentValue = JSON.parse(new TextDecoder().decode(typeof body === 'string' ? new TextEncoder().encode(body) : body));
    } catch {
      sentValue = undefined;
    }
    // the route the daemon matched: query dropped, percent-encoding decoded
    let route = path.split('?')[0]!;
    try {
      route = decodeURIComponent(route);
    } catch {
      // stays encoded
    }
    const def = SECTION_AT.get(route);
    if (def) saved = [def.key];
    else if (route === SAVE_ALL) {
      expect(isObject(sentValue), `save-all accepted a non-object: ${sent.slice(0, 300)}`).toBe(true);
      saved = Object.keys(sentValue as object);
      for (const k of saved) expect(this.d.ctx.store.has(k), `save-all accepted an unknown section ${JSON.stringify(k)}: ${r.text.slice(0, 200)}`).toBe(true);
      expect(Object.keys(r.body).sort(), 'save-all answers the saved sections').toEqual([...saved].sort());
    }
    const allowed = new Set(saved.map((k) => `${k}.json`));
    for (const name of changed(filesBefore, filesAfter)) expect(allowed.has(name), `POST ${path} (${r.status}) changed ${name}`).toBe(true);
    for (const k of this.d.ctx.store.keys())
      if (!saved.includes(k)) expect(json(this.d.ctx.store.get(k)), `POST ${path} changed section ${k} in memory`).toBe(json(storeBefore[k]));
    for (const key of saved) {
      const input = def ? sentValue : (sentValue as Record<string, unknown>)[key];
      await this.checkSaved(key, r.status, def ? r.body : r.body[key], input, storeBefore[key], filesAfter);
    }
    return r;
  }

  /** After a 2xx: file, store, GET and the reply agree; secrets are masked and kept as sent. */
  async checkSaved(key: string, status: number, replied: unknown, input: unknown, previous: unknown, files: Files): Promise<void> {
    const def = this.d.ctx.store.def(key)!;
    const stored = this.d.ctx.store.get<Record<string, unknown>>(key);
    const file = files.get(`${key}.json`);
    expect(file, `${key}.json missing after a ${status}`).toBeDefined();
    const onDisk = JSON.parse(file!.toString('utf8')) as unknown;
    expect(json(onDisk), `${key}.json differs from the store`).toBe(json(stored));
    const reloaded = loadSection(def, onDisk);
    expect(reloaded.repaired, `${key}.json as saved would be repaired on the next start: ${json(onDisk).slice(0, 400)}`).toBe(false);
    expect(json(reloaded.value)).toBe(json(stored));

    const got = await this.get(`/config/${key}`);
    expect(got.status).toBe(200);
    expect(json(got.body), `GET /config/${key} differs from the store`).toBe(json(this.d.ctx.store.read(key)));
    expect(json(replied), `POST reply differs from GET /config/${key}`).toBe(json(got.body));
    for (const p of def.passwords) {
      const s = stored[p];
      expect(got.body[p], `${key}.${p} not masked`).toBe(typeof s === 'string' && s !== '' ? PASSWORD_MASK : s);
      const sentP = isObject(input) ? input[p] : undefined;
      const before = isObject(previous) ? previous[p] : undefined;
      if (sentP === PASSWORD_MASK) expect(s, `${key}.${p}: the mask did not keep the stored secret`).toBe(before);
      else if (typeof sentP === 'string') expect(s, `${key}.${p} not stored as sent`).toBe(sentP);
      else if (sentP === undefined) expect(s).toBe((defaultsOf(def) as Record<string, unknown>)[p]);
    }
  }

  summary(): string {
    return (
      `${this.requests} requests; statuses ${json(Object.fromEntries([...this.statuses].sort((a, b) => a[0] - b[0])))}; ` +
      `${this.mustFail} bodies the schema must refuse; accepted ${json(Object.fromEntries(this.accepted))}`
    );
  }
}

function changed(a: Files, b: Files): string[] {
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names].filter((n) => !a.has(n) || !b.has(n) || !a.get(n)!.equals(b.get(n)!));
}

/** Why a body sent to `path` must be refused, judged from the schema alone. */
function mustFailFor(path: string, value: unknown): string | undefined {
  const def = SECTION_AT.get(path);
  if (def) return mustRefuse(shapeOf(def.schema), value);
  if (path === SAVE_ALL) {
    if (!isObject(value)) return 'save-all body is not an object';
    const keys = Object.keys(value);
    if (!keys.length) return 'save-all body is empty';
    for (const k of keys) {
      const d = CONFIG_SECTIONS.find((s) => s.key === k);
      if (!d) return `unknown section ${JSON.stringify(k)}`;
      const why = mustRefuse(shapeOf(d.schema), value[k]);
      if (why) return `${k}: ${why}`;
    }
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------

describe('fuzz: every POST route as the admin (VAL-1, ERR-1)', () => {
  let d: TestDaemon;
  let f: Fuzzer;
  let started = 0;
  const routes = POSTS.filter((r) => r.path !== LOGOUT); // logout ends the session: its own test below

  beforeAll(async () => {
    started = Date.now();
    d = await startTestDaemon();
    f = new Fuzzer(d, await d.admin());
  });
  afterAll(async () => {
    if (f) console.log(`fuzz (admin routes): ${f.summary()} in ${Date.now() - started} ms, seed ${SEED}`);
    await d?.stop();
  });

  it('the route table has POST routes, and every section has one', () => {
    expect(routes.length).toBeGreaterThan(CONFIG_SECTIONS.length);
    for (const def of CONFIG_SECTIONS)
      expect(
        POSTS.some((r) => r.path === `/config/${def.key}`),
        def.key,
      ).toBe(true);
  });

  it('targeted: keep_alive 70000 is out of range and changes nothing', async () => {
    const before = await f.files();
    // a submitted section is whole, so the other fields are the defaults
    const r = await f.exercise('/config/pew_mqtt', json({ ...mqttDefaults(), keep_alive: 70000 }), 'application/json');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_input');
    expect(r.body.error.issues).toEqual([{ section: 'pew_mqtt', path: 'keep_alive', code: 'out_of_range', params: { min: 0, max: 65535 } }]);
    expect(changed(before, await f.files())).toEqual([]);
  });

  it('targeted: a secret in a refused body is not echoed, a saved one is masked', async () => {
    const secret = marker(1);
    const bad = await f.exercise('/config/pew_mqtt', json({ ...mqttDefaults(), broker_password: secret, keep_alive: -1 }), 'application/json');
    expect(bad.status).toBe(400);
    const ok = await f.exercise('/config/pew_mqtt', json({ ...mqttDefaults(), broker_password: secret }), 'application/json');
    expect(ok.status).toBe(200);
    expect(ok.body.broker_password).toBe(PASSWORD_MASK);
    expect(d.ctx.store.get<{ broker_password: string }>('pew_mqtt').broker_password).toBe(secret);
  });

  // regression: "__proto__" used to be swallowed (200, the other sections saved) by a plain-object issue map
  it('targeted: save-all refuses an unknown section key and saves nothing, also "__proto__"', async () => {
    for (const unknown of ['nosuch', 'constructor', '__proto__']) {
      const before = await f.files();
      const text = `{"pew_mqtt":${json({ ...mqttDefaults(), keep_alive: 77 })},${JSON.stringify(unknown)}:{"x":1}}`;
      const r = await f.post(SAVE_ALL, text, 'application/json');
      f.checkReply('POST', SAVE_ALL, r, text);
      expect({ key: unknown, status: r.status }, `save-all with section ${unknown} → ${r.status} ${r.text.slice(0, 200)}`).toEqual({
        key: unknown,
        status: 400,
      });
      expect(r.body.error.issues, r.text).toContainEqual(expect.objectContaining({ section: unknown, code: 'unknown_key' }));
      expect(changed(before, await f.files()), unknown).toEqual([]);
    }
  });

  // regression: the 413 used to say keep-alive while the server dropped the connection 500 ms later,
  // losing the next request sent on it
  it('targeted: after a 413 the connection is either closed with "Connection: close" or still serves', async () => {
    const body = Buffer.from(`{"pad":"${'a'.repeat(CONFIG_JSON_LIMIT + 200_000)}"}`);
    const socket = connect(d.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    let got = '';
    socket.on('data', (b: Buffer) => (got += b.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const h = `cookie: ${f.admin.cookie}\r\nx-csrf-token: ${f.admin.csrf}\r\n`;
    socket.write(`POST /config/pew_mqtt HTTP/1.1\r\nHost: x\r\n${h}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
    socket.write(body);
    for (let i = 0; i < 100 && !got.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 10));
    const first = got;
    expect(first).toMatch(/^HTTP\/1\.1 413 /);
    got = '';
    socket.write(`GET ${AUTH} HTTP/1.1\r\nHost: x\r\n${h}\r\n`);
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1500))]);
    socket.destroy();
    const announcedClose = /\r\nconnection: close\r\n/i.test(first);
    expect({ announcedClose, second: got.split('\r\n')[0] || '(connection closed without an answer)' }, first.split('\r\n\r\n')[0]).toEqual(
      announcedClose ? { announcedClose, second: expect.any(String) } : { announcedClose, second: 'HTTP/1.1 200 OK' },
    );
  });

  it('(1) random JSON values to every POST route', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }),
          fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' }),
          fc.dictionary(fc.constantFrom(...CONFIG_SECTIONS.map((s) => s.key), 'nosuch', '__proto__'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
        ),
        async (route: RouteDef, value) => {
          const path = concrete(route.path);
          const text = JSON.stringify(value);
          await f.exercise(path, text, 'application/json', { mustFail: mustFailFor(path, JSON.parse(text)) });
        },
      ),
      runs(260),
    );
    await f.alive();
  });

  it('(2) section defaults with random mutations to POST /config/<section>', async () => {
    const perSection = Math.max(25, Math.round(450 / CONFIG_SECTIONS.length));
    for (const def of CONFIG_SECTIONS) {
      const path = `/config/${def.key}`;
      await fc.assert(
        fc.asyncProperty(sectionPayloadArb(def), async (p: SectionPayload) => {
          const r = await f.exercise(path, p.text, 'application/json', { mustFail: p.mustFail, note: p.notes.join(' ') });
          if (p.mustFail && r.status === 400) expect(r.body.error.issues?.length ?? 0, r.text).toBeGreaterThan(0);
        }),
        runs(perSection),
      );
    }
    await f.alive();
  });

  it('(2b) save-all with mixtures of valid, stored and mutated sections: all or nothing', async () => {
    type Part = { kind: 'defaults' | 'current' | 'empty' } | { kind: 'mutated'; p: SectionPayload };
    const part = (def: SectionDef): fc.Arbitrary<Part> =>
      fc.oneof(
        { weight: 12, arbitrary: fc.constant<Part>({ kind: 'defaults' }) },
        { weight: 12, arbitrary: fc.constant<Part>({ kind: 'current' }) },
        { weight: 1, arbitrary: fc.constant<Part>({ kind: 'empty' }) },
        { weight: 3, arbitrary: sectionPayloadArb(def).map((p): Part => ({ kind: 'mutated', p })) },
      );
    const mixture = fc.record({
      // each section absent (null) half of the time
      parts: fc.tuple(...CONFIG_SECTIONS.map((def) => fc.option(part(def), { freq: 2 }))),
      extra: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom('nosuch', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'PEW', 'pew ', 'config') },
      ),
      order: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(mixture, async ({ parts, extra, order }) => {
        const entries: [string, string][] = [];
        parts.forEach((pt, i) => {
          if (!pt) return;
          const def = CONFIG_SECTIONS[i]!;
          const text =
            pt.kind === 'mutated'
              ? pt.p.text
              : pt.kind === 'defaults'
                ? toJsonText(defaultsOf(def))
                : pt.kind === 'current'
                  ? toJsonText(d.ctx.store.read(def.key))
                  : '{}';
          entries.push([def.key, text]);
        });
        if (extra !== null) entries.push([extra, '{}']);
        if (order) entries.reverse();
        const text = `{${entries.map(([k, t]) => `${JSON.stringify(k)}:${t}`).join(',')}}`;
        const value = JSON.parse(text) as unknown;
        const r = await f.exercise(SAVE_ALL, text, 'application/json', { mustFail: mustFailFor(SAVE_ALL, value) });
        if (r.status === 400 && Array.isArray(r.body.error.issues))
          for (const i of r.body.error.issues)
            expect(
              entries.map(([k]) => k),
              `issue of a section not sent: ${r.text.slice(0, 300)}`,
            ).toContain(i.section);
      }),
      runs(150),
    );
    await f.alive();
  });

  it('(3) raw bodies: wrong content types, broken JSON, invalid UTF-8, deep nesting, over the body limit', async () => {
    // every fixed case on four routes in turn (JSON-reading ones first), an oversize body on every
    // route, then random picks
    const order = [...routes.filter((r) => READS_JSON.has(r.path)), ...routes.filter((r) => !READS_JSON.has(r.path))];
    let turn = 0;
    for (const b of RAW_BODIES) for (let k = 0; k < 4; k++) await sendRaw(order[turn++ % order.length]!, b);
    const oversize = RAW_BODIES.find((b) => b.name === 'oversize')!;
    for (const route of routes) await sendRaw(route, oversize);
    await fc.assert(fc.asyncProperty(fc.constantFrom(...routes), rawBodyArb, sendRaw), runs(120));
    await f.alive();

    async function sendRaw(route: RouteDef, b: RawBody): Promise<void> {
      const path = concrete(route.path);
      let value: unknown;
      let isJson = false;
      if (b.contentType && /^application\/json\s*(;|$)/i.test(b.contentType)) {
        try {
          value = JSON.parse(new TextDecoder().decode(typeof b.body === 'string' ? new TextEncoder().encode(b.body) : b.body));
          isJson = true;
        } catch {
          isJson = false;
        }
      }
      const r = await f.exercise(path, b.body, b.contentType, {
        chunked: b.chunked,
        mustFail: isJson ? mustFailFor(path, value) : READS_JSON.has(path) ? 'not JSON' : undefined,
        note: b.name,
      });
      // a 413 case is over 64 KiB: a route that takes more (a settings save) may accept it
      const applies = b.expect && (b.expect.status === 413 ? !RAW_BODY.has(path) && sizeOf(b.body) > limitAt(path) : READS_JSON.has(path));
      if (applies) expect({ case: b.name, status: r.status, code: r.body?.error?.code }, r.text.slice(0, 300)).toEqual({ case: b.name, ...b.expect });
    }
  });

  it('(3b) path variants of the section routes answer like the route or a JSON 404', async () => {
    const variants = (p: string) => [
      `${p}/`,
      p.toUpperCase(),
      `${p}%00`,
      `${p}%2f`,
      `${p}?x=1`,
      `${p}/x`,
      `${p.slice(0, -1)}%${p.charCodeAt(p.length - 1).toString(16)}`,
      `/config//${p.slice(8)}`,
      `${p};x`,
      `/config/__proto__`,
      '/config/constructor',
      '/config/get_reset',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CONFIG_SECTIONS), fc.nat(), fc.boolean(), async (def, pick, valid) => {
        const vs = variants(`/config/${def.key}`);
        const path = vs[pick % vs.length]!;
        const body = valid ? toJsonText(d.ctx.store.read(def.key)) : json({ ...(defaultsOf(def) as object), unknown_field: 1 });
        await f.exercise(path, body, 'application/json', { mustFail: valid ? undefined : 'unknown key' });
      }),
      runs(60),
    );
  });

  it('the daemon is alive, logged no failed request, and no secret reached a file it should not', async () => {
    await f.alive();
    // a route failing with an unexpected error is a fault of its connection, logged and counted by the console listener's guard
    const failed = d.ctx.log.recent().filter((e) => e.msg === 'request failed' || e.msg === 'connection fault contained');
    expect(failed, json(failed).slice(0, 1000)).toEqual([]);
    expect(d.ctx.consoleListeners!().map((l) => l.faults)).toEqual([0]);
    const audit = await readdir(join(d.dataDir, 'audit')).catch(() => [] as string[]);
    for (const name of audit) expect(await readFile(join(d.dataDir, 'audit', name), 'utf8'), name).not.toContain(MARKER);
    expect(await readFile(join(d.dataDir, 'users.json'), 'utf8')).not.toContain(MARKER);
  });
});

describe('fuzz: authentication routes (ERR-1, AUTH-4)', () => {
  let d: TestDaemon;
  let f: Fuzzer;
  let started = 0;

  beforeAll(async () => {
    started = Date.now();
    d = await startTestDaemon();
    f = new Fuzzer(d, await d.admin());
  });
  afterAll(async () => {
    if (f) console.log(`fuzz (auth routes): ${f.summary()} in ${Date.now() - started} ms, seed ${SEED}`);
    await d?.stop();
  });

  it('logout with any body ends only that session', async () => {
    const bodies = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }).map((x) => ({ text: JSON.stringify(x), type: 'application/json' as string | undefined })),
      fc
        .constantFrom(...RAW_BODIES.filter((b) => typeof b.body === 'string' && b.body.length < LIMIT && !b.chunked))
        .map((b) => ({ text: b.body as string, type: b.contentType })),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async ({ text, type }) => {
        const c = await d.admin();
        const r = await f.post(LOGOUT, text, type, { client: c });
        f.checkReply('POST', LOGOUT, r, text);
        expect(r.status, r.text).toBe(200);
        expect((await c.get(AUTH)).status).toBe(401);
        await f.alive(); // the fuzzer's own session lives on
      }),
      runs(8),
    );
  });

  it('login and setup with random bodies and marked passwords: 4xx, never the secret', async () => {
    const password = fc.oneof(
      fc.nat().map(marker), // policy-valid: upper, lower, digit, special
      fc.nat().map((n) => `${marker(n)}${'y'.repeat(200)}`),
      fc.nat().map((n) => `${marker(n)}\u0000\n`),
      fc.tuple(fc.nat(), anyText(20)).map(([n, s]) => `${s}${marker(n)}${s}`),
    );
    const username = fc.oneof(fc.constantFrom(ADMIN.username, 'viewer', 'Admin', 'root', '', 'a'.repeat(65), 'admin\u0000', '../admin'), anyText(40));
    const body = fc.oneof(
      fc.record({ username, password }),
      fc.record({ username, password, extra: fc.jsonValue({ maxDepth: 1 }) }),
      fc.record({ username: fc.jsonValue({ maxDepth: 1 }), password }),
      fc.record({ password }),
      fc.jsonValue({ maxDepth: 3 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(AUTH, `${AUTH}/setup`), body, fc.boolean(), async (path, value, asAdmin) => {
        const text = JSON.stringify(value);
        const r = asAdmin ? await f.post(path, text, 'application/json') : await f.post(path, text, 'application/json', { client: d.client() });
        f.checkReply('POST', path, r, text);
        expect(r.status, `${path}: ${r.text}`).toBeGreaterThanOrEqual(400); // no fuzzed body knows the password, setup is done
        if (path === AUTH) expect([400, 401, 429], r.text).toContain(r.status);
        else expect(r.status, r.text).toBe(409);
      }),
      runs(90),
    );
    await f.alive();
    for (const name of ['users.json', 'lockout.json']) expect(await readFile(join(d.dataDir, name), 'utf8').catch(() => ''), name).not.toContain(MARKER);
    const audit = await readdir(join(d.dataDir, 'audit')).catch(() => [] as string[]);
    for (const name of audit) expect(await readFile(join(d.dataDir, 'audit', name), 'utf8'), name).not.toContain(MARKER);
  });
});
