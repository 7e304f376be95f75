// The console's built files served by the daemon (device/api/static.ts): gzip by Accept-Encoding,
// cache headers, ETag/304, HEAD, no way out of the web folder, and the API unchanged beside it.

import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../build/web.ts';
import { CONSOLE_CSP } from '../../device/api/static.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { writeWebFixture } from '../support/web-fixture.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** node:http sends the path byte for byte (fetch would normalise `..` and `%2e` away) */
function raw(d: TestDaemon, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: d.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const GZ = { 'accept-encoding': 'gzip, deflate, br' };
const INDEX =
  '<!doctype html><html><head><link rel="stylesheet" href="assets/main-CSS12345.css"><script type="module" src="assets/main-JS123456.js"></script></head><body><div id="app"></div></body></html>';
const JS = `import{render as r}from"./chunk-X.js";${'console.log("communicator console");'.repeat(40)}`;
const CSS = `body{margin:0}${'.page{padding:1rem;color:var(--fg)}'.repeat(30)}`;
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"/>';
const SECRET = 'outside the web folder';

async function writeWebDir(root: string): Promise<string> {
  const web = join(root, 'web');
  await mkdir(join(web, 'assets'), { recursive: true });
  const put = async (name: string, text: string, gz = true) => {
    await writeFile(join(web, name), text);
    if (gz) await writeFile(join(web, `${name}.gz`), gzipSync(text, { level: 9 }));
  };
  await put('index.html', INDEX);
  await put('assets/main-JS123456.js', JS);
  await put('assets/main-CSS12345.css', CSS);
  await put('assets/logo-SVG12345.svg', SVG, false);
  await put('assets/tiny-TINY1234.js', 'x'); // its gzip twin is larger: the plain file is sent
  await writeFile(join(root, 'secret.txt'), SECRET);
  await writeFile(join(web, '.hidden'), SECRET);
  return web;
}

describe('the console served from built files', () => {
  let tmp = '';
  let d: TestDaemon;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'static-test-'));
    d = await startTestDaemon({ webDir: await writeWebDir(tmp) });
  });
  afterAll(async () => {
    await d.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it('sends index.html gzip-encoded when accepted, revalidated, with the CSP', async () => {
    for (const path of ['/', '/index.html']) {
      const r = await raw(d, path, GZ);
      expect(r.status).toBe(200);
      expect(r.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'content-encoding': 'gzip',
        vary: 'Accept-Encoding',
        'cache-control': 'no-cache',
        'content-security-policy': CONSOLE_CSP,
        'x-content-type-options': 'nosniff',
      });
      expect(gunzipSync(r.body).toString()).toBe(INDEX);
    }
  });

  it('sends the plain file when gzip is not accepted', async () => {
    const refusing: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, br' }];
    for (const headers of refusing) {
      const r = await raw(d, '/', headers);
      expect(r.headers['content-encoding']).toBeUndefined();
      expect(r.headers.vary).toBe('Accept-Encoding');
      expect(r.body.toString()).toBe(INDEX);
    }
  });

  it('caches hashed assets for a year with the right types', async () => {
    const js = await raw(d, '/assets/main-JS123456.js', GZ);
    expect(js.headers).toMatchObject({
      'content-type': 'text/javascript; charset=utf-8',
      'content-encoding': 'gzip',
      'cache-control': 'public, max-age=31536000, immutable',
    });
    expect(js.headers['content-security-policy']).toBeUndefined();
    expect(gunzipSync(js.body).toString()).toBe(JS);
    const css = await raw(d, '/assets/main-CSS12345.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body.toString()).toBe(CSS);
    const svg = await raw(d, '/assets/logo-SVG12345.svg', GZ); // no .gz twin
    expect(svg.headers).toMatchObject({ 'content-type': 'image/svg+xml; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(svg.headers['content-encoding']).toBeUndefined();
    expect(svg.body.toString()).toBe(SVG);
    const tiny = await raw(d, '/assets/tiny-TINY1234.js', GZ);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('x');
  });

  it('answers 304 to a matching If-None-Match, per encoding', async () => {
    const gz = await raw(d, '/assets/main-JS123456.js', GZ);
    const plain = await raw(d, '/assets/main-JS123456.js');
    const etag = String(gz.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(plain.headers.etag).not.toBe(etag);
    const again = await raw(d, '/assets/main-JS123456.js', { ...GZ, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers).toMatchObject({ etag, 'cache-control': 'public, max-age=31536000, immutable', vary: 'Accept-Encoding' });
    expect((await raw(d, '/assets/main-JS123456.js', { 'if-none-match': `"other", W/${plain.headers.etag}` })).status).toBe(304);
    expect((await raw(d, '/assets/main-JS123456.js', { 'if-none-match': etag })).status).toBe(200); // gzip tag, plain asked
    const index = await raw(d, '/', GZ);
    const indexAgain = await raw(d, '/', { ...GZ, 'if-none-match': String(index.headers.etag) });
    expect(indexAgain.status).toBe(304);
    expect(indexAgain.headers['cache-control']).toBe('no-cache');
  });

  it('answers HEAD with the headers and size but no body', async () => {
    const r = await raw(d, '/assets/main-CSS12345.css', {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers['content-length']).toBe(String(Buffer.byteLength(CSS)));
    expect(r.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(r.body.length).toBe(0);
  });

  it('never serves a file outside the web folder, nor hidden files or gzip twins directly', async () => {
    const attempts = [
      '/assets/..%2Fpackage.json',
      '/assets/..%2F..%2Fsecret.txt',
      '/assets/%2e%2e/x',
      '/assets/%2e%2e%2fsecret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '//etc/passwd',
      '/assets/../../package.json',
      '/assets/../secret.txt',
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2Fetc%2Fpasswd',
      '/assets//main-JS123456.js',
      '/assets/main-JS123456.js%00.png',
      '/assets/.hidden',
      '/assets/..%5Csecret.txt',
      '/.hidden',
      '/secret.txt',
      '/assets/main-JS123456.js.gz',
      '/assets/missing-ABCDEFGH.js',
    ];
    for (const path of attempts) {
      const r = await raw(d, path, GZ);
      expect(r.status, path).toBe(404);
      expect(r.body.toString(), path).not.toContain(SECRET);
      expect(r.body.toString(), path).not.toContain('communicator-console');
      expect(r.body.toString(), path).not.toContain('root:');
    }
    // dot segments are resolved as a browser resolves them (the node server parses the URL): at most the console's own index
    for (const path of ['/assets/..', '/assets/%2e%2e', '/assets/.', '/assets/%2e%2e/index.html']) {
      const r = await raw(d, path);
      expect(r.status === 404 || r.body.toString() === INDEX, path).toBe(true);
    }
    const unknown = await raw(d, '/assets/missing-ABCDEFGH.js');
    expect(JSON.parse(unknown.body.toString())).toEqual({ error: { code: 'not_found', message: 'No such route' } });
    expect(unknown.headers['cache-control']).toBe('no-store');
  });

  it('leaves the API as it was', async () => {
    const c = d.client();
    const auth = await c.get('/rest/api/v1/authentication');
    expect(auth.status).toBe(401);
    expect(auth.body.error.code).toBe('setup_required');
    expect(auth.headers.get('cache-control')).toBe('no-store');
    expect((await c.get('/config/pew_mqtt')).status).toBe(401);
    expect((await c.post('/', {})).status).toBe(404);
    expect((await c.get('/no/such/route')).body.error.code).toBe('not_found');
  });

  it('every kind of answer carries the security headers: file, API read, API error, refused POST, 404', async () => {
    const admin = await d.admin();
    const answers = [
      await raw(d, '/assets/main-JS123456.js', GZ),
      await raw(d, '/config/pew_mqtt', { cookie: admin.cookie }),
      await raw(d, '/config/pew_mqtt', {}),
      await raw(d, '/no/such/route', {}),
    ];
    const post = await fetch(`${d.url}/config/pew_mqtt`, { method: 'POST', headers: { cookie: admin.cookie, 'content-type': 'application/json' }, body: '{}' });
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404]);
    expect(post.status).toBe(403); // no CSRF token
    const headersOf = [...answers.map((a) => a.headers), Object.fromEntries(post.headers)];
    for (const h of headersOf) expect(h).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
    for (const h of headersOf.slice(1)) expect(h['cache-control']).toBe('no-store');
  });
});

describe('a daemon beside a console that is not built', () => {
  it('answers / with a short 503 that says what to run', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'static-empty-'));
    const d = await startTestDaemon({ webDir: empty });
    try {
      const r = await raw(d, '/');
      expect(r.status).toBe(503);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.body.toString()).toContain('npm run build');
      expect((await raw(d, '/assets/main-JS123456.js')).status).toBe(404);
      // built while the daemon runs: served without a restart
      await writeFile(join(empty, 'index.html'), INDEX);
      expect((await raw(d, '/')).body.toString()).toBe(INDEX);
    } finally {
      await d.stop();
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('a console built by buildWeb', () => {
  it('is served with every file index.html references', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'static-build-'));
    const out = join(tmp, 'out');
    const d = await startTestDaemon({ webDir: out });
    try {
      await writeWebFixture(join(tmp, 'src'));
      await buildWeb({ outDir: out, srcDir: join(tmp, 'src') });
      const index = await raw(d, '/', GZ);
      expect(index.status).toBe(200);
      const refs = [
        ...gunzipSync(index.body)
          .toString()
          .matchAll(/(?:src|href)="([^"]+)"/g),
      ].map((m) => m[1]!);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        const r = await raw(d, `/${ref}`, GZ);
        expect(r.status, ref).toBe(200);
        // the gzip twin is sent unless it is larger (tiny fixture files)
        const [plain, gz] = [await readFile(join(out, ref)), await readFile(join(out, `${ref}.gz`))];
        expect(r.headers['content-encoding'], ref).toBe(gz.length < plain.length ? 'gzip' : undefined);
        expect((r.headers['content-encoding'] ? gunzipSync(r.body) : r.body).equals(plain), ref).toBe(true);
        expect(r.headers['cache-control'], ref).toBe('public, max-age=31536000, immutable');
      }
    } finally {
      await d.stop();
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
