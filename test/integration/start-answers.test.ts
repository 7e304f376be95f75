// index.html with the daemon's answers to the console's start requests (device/api/start-answers.ts):
// only for a request with a session cookie and a page that has the marker; each answer is the one
// the API gives that browser (the same route, access check and handler); the page is then no-store;
// no value can end its JSON element; without a cookie the built file goes out as before.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_ROUTES, PREFS_COOKIE } from '../../device/model/first-frame.ts';
import {
  ALL_SECTIONS_PATH,
  AUTH_PATH,
  HTTP_FILES_PATH,
  LOG_CONFIG_FILES_PATH,
  ROUTE_DATA_PATHS,
  SERVICES_PATH,
  START_ANSWERS_ID,
  START_ANSWERS_MARKER,
  START_DATA_PATHS,
  SYSTEM_INFO_PATH,
} from '../../device/model/start-answers.ts';
import { ADMIN, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

const PAGE = `<!doctype html><html><head><title>t</title></head><body><div id="app"></div>\n${START_ANSWERS_MARKER}\n</body></html>`;
const BARE = '<!doctype html><html><head><title>bare</title></head><body><pre id="x"></pre></body></html>';
const ELEMENT = new RegExp(`<script type="application/json" id="${START_ANSWERS_ID}">(.*?)</script>`, 's');

async function webDir(root: string, html: string): Promise<string> {
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), html);
  await writeFile(join(root, 'index.html.gz'), gzipSync(html, { level: 9 }));
  return root;
}

/** GET / as sent on the wire (fetch would unpack the gzip). */
function rawGet(d: TestDaemon, headers: Record<string, string>): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: d.port, path: '/', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page as the browser gets it, and the answers in it (undefined when it has none). */
async function page(d: TestDaemon, headers: Record<string, string>) {
  const res = await fetch(`${d.url}/`, { headers });
  const text = await res.text();
  const m = ELEMENT.exec(text);
  return { res, text, answers: m ? (JSON.parse(m[1]!) as Record<string, { status: number; body: any }>) : undefined };
}

describe('index.html with the answers to the start requests', () => {
  let tmp = '';
  let d: TestDaemon;
  let bare: TestDaemon;
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'start-answers-'));
    d = await startTestDaemon({ webDir: await webDir(join(tmp, 'console'), PAGE) });
    bare = await startTestDaemon({ webDir: await webDir(join(tmp, 'bare'), BARE) });
  });
  afterAll(async () => {
    await Promise.all([d?.stop(), bare?.stop()]);
    await rm(tmp, { recursive: true, force: true });
  });

  it('without a session cookie: the built file, cached and revalidated, with no answers', async () => {
    const { res, text, answers } = await page(d, {});
    expect(res.status).toBe(200);
    expect(answers).toBeUndefined();
    expect(text).toBe(PAGE);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('with no administrator yet: the one answer says so', async () => {
    const { answers, res } = await page(d, { cookie: 'sid=nobody' });
    expect(Object.keys(answers!)).toEqual([AUTH_PATH]);
    expect(answers![AUTH_PATH]).toEqual({ status: 401, body: { error: expect.objectContaining({ code: 'setup_required' }) } });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('signed in: every start answer, each the one the API gives this session; no-store; gzip when asked', async () => {
    const admin = await d.admin();
    const { res, answers } = await page(d, { cookie: admin.cookie });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(Object.keys(answers!).sort()).toEqual([AUTH_PATH, ...START_DATA_PATHS].sort());
    for (const a of Object.values(answers!)) expect(a.status).toBe(200);
    expect(answers![AUTH_PATH]!.body).toEqual({ currentUser: ADMIN.username, role: 'admin', csrfToken: admin.csrf });
    for (const path of [SERVICES_PATH, LOG_CONFIG_FILES_PATH, HTTP_FILES_PATH, ALL_SECTIONS_PATH])
      expect(answers![path]!.body, path).toEqual((await admin.get(path)).body);
    // the uptime may tick between the page and the later call: at most what the call says
    const { uptimeSeconds: pageUptime, ...pageOs } = answers![SYSTEM_INFO_PATH]!.body.os;
    const { uptimeSeconds: laterUptime, ...laterOs } = (await admin.get(SYSTEM_INFO_PATH)).body.os;
    expect(pageOs).toEqual(laterOs);
    expect(pageUptime).toBeGreaterThanOrEqual(0);
    expect(pageUptime).toBeLessThanOrEqual(laterUptime);

    const raw = await rawGet(d, { cookie: admin.cookie, 'accept-encoding': 'gzip' });
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(Number(raw.headers['content-length'])).toBe(raw.body.length);
    const unpacked = gunzipSync(raw.body).toString();
    expect(JSON.parse(ELEMENT.exec(unpacked)![1]!)[ALL_SECTIONS_PATH].body).toEqual(answers![ALL_SECTIONS_PATH]!.body);
  });

  it('the user role gets its own answers', async () => {
    const user = await d.user();
    const { answers } = await page(d, { cookie: user.cookie });
    expect(answers![AUTH_PATH]!.body).toMatchObject({ currentUser: 'viewer', role: 'user' });
    expect(answers![ALL_SECTIONS_PATH]!.status).toBe(200);
  });

  it('a cookie of no session: only the refusal, no data', async () => {
    await d.admin();
    const { answers } = await page(d, { cookie: 'sid=0123456789abcdef' });
    expect(answers).toEqual({ [AUTH_PATH]: { status: 401, body: { error: expect.objectContaining({ code: 'unauthenticated' }) } } });
  });

  it("with the preferences cookie's route: that page's data too, each answered as the API answers the session, viewer or administrator", async () => {
    for (const who of [await d.admin(), await d.user()]) {
      for (const route of FRAME_ROUTES) {
        const { answers } = await page(d, { cookie: `${who.cookie}; ${PREFS_COOKIE}=en.default.all.${route}` });
        expect(Object.keys(answers!).sort(), route).toEqual([AUTH_PATH, ...START_DATA_PATHS, ...ROUTE_DATA_PATHS[route]].sort());
        for (const path of ROUTE_DATA_PATHS[route]) {
          const direct = await who.get(path);
          expect(answers![path]!.status, `${route} ${path}`).toBe(direct.status);
          if (route !== 'com' && route !== 'port' && route !== 'mqtt') expect(answers![path]!.body, path).toEqual(direct.body);
        }
      }
      // another page, an old cookie of three names (the information page), or a route it does not know: the start data alone
      for (const prefs of ['en.default.all.other', 'en.default.all', 'en.default.all.users'])
        expect(Object.keys((await page(d, { cookie: `${who.cookie}; ${PREFS_COOKIE}=${prefs}` })).answers!).sort(), prefs).toEqual(
          [AUTH_PATH, ...START_DATA_PATHS].sort(),
        );
    }
  });

  it("a cookie of no session with a route: only the refusal, none of the page's data", async () => {
    await d.admin();
    const { answers } = await page(d, { cookie: `sid=0123456789abcdef; ${PREFS_COOKIE}=en.default.all.com` });
    expect(answers).toEqual({ [AUTH_PATH]: { status: 401, body: { error: expect.objectContaining({ code: 'unauthenticated' }) } } });
  });

  it('no value ends the element: a saved text with </script> and <!-- stays inside the JSON', async () => {
    const admin = await d.admin();
    const evil = '</script><script>x</script><!--';
    const saved = await admin.post('/config/pew_mqtt', { ...(await admin.get('/config/pew_mqtt')).body, broker_user: evil });
    expect(saved.status, saved.text).toBe(200);
    const { text, answers } = await page(d, { cookie: admin.cookie });
    expect(text.split('</script>')).toHaveLength(2); // the element's own end only
    expect(text).not.toContain('<!--start');
    expect(text).not.toContain('<script>x');
    expect(answers![ALL_SECTIONS_PATH]!.body.pew_mqtt.broker_user).toBe(evil);
  });

  it('a page without the marker (another web folder) goes out as built, cookie or not', async () => {
    const admin = await bare.admin();
    const { res, text } = await page(bare, { cookie: admin.cookie });
    expect(text).toBe(BARE);
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('HEAD is answered without making the answers', async () => {
    const admin = await d.admin();
    const res = await fetch(`${d.url}/`, { method: 'HEAD', headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
  });
});
