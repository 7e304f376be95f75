// The script file over a real socket (spec §3 Script, §5 script extension .cfg, §7 get_defscript,
// writefile, download/pew_script.cfg, upload): the default script, writing the active script,
// a save of the page's two sections writing the file the saved pew_script names, uploads of .cfg
// files (the active one also becomes the script_file text), downloads, and a restart that keeps
// every file as it was.

import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPT_MAX, scriptFileSchema } from '../../device/model/sections/scriptfile.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let dataDir: string;
let d: TestDaemon;
let admin: Client;
let user: Client;
const scriptFile = (name: string) => join(dataDir, 'scripts', name);
const read = (name: string) => readFile(scriptFile(name), 'utf8').catch(() => undefined);

async function fetchRaw(c: Client, path: string) {
  const res = await fetch(c.base + path, { headers: { cookie: c.cookie } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** the raw body upload of a script (the console sends the file as it is) */
const uploadScript = (c: Client, name: string, text: string) =>
  c.request('POST', `/config/upload?kind=script&name=${encodeURIComponent(name)}`, text, { 'content-type': 'application/octet-stream' });

async function start() {
  d = await startTestDaemon({ dataDir });
  admin = await d.admin();
  user = await d.user();
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'script-files-'));
  await start();
});
afterAll(async () => {
  await d?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the script file', () => {
  it('get_defscript answers a documented default that the editor accepts', async () => {
    const r = await user.get('/config/get_defscript');
    expect(r.status).toBe(200);
    expect(r.body.name).toBe('pew_script.cfg');
    expect(r.body.content).toMatch(/^# pew_script\.cfg/);
    expect(r.body.content).toContain('[cycle 60]');
    expect(v.safeParse(scriptFileSchema, { content: r.body.content }).success).toBe(true);
  });

  it('a fresh unit has no script file to download', async () => {
    const r = await fetchRaw(user, '/download/pew_script.cfg');
    expect(r.status).toBe(404);
    expect(JSON.parse(r.text).error.code).toBe('file_not_found');
    expect((await user.get('/config/get_scripts')).body).toEqual({ active: 'pew_script.cfg', files: [] });
  });

  it('writefile writes the active script and stores its text; the download is that file', async () => {
    const content = (await user.get('/config/get_defscript')).body.content as string;
    const w = await admin.post('/config/writefile', { content });
    expect(w.status, w.text).toBe(200);
    expect(w.body).toEqual({ name: 'pew_script.cfg', size: Buffer.byteLength(content) });
    expect(await read('pew_script.cfg')).toBe(content);
    expect((await user.get('/config/script_file')).body).toEqual({ content });
    const dl = await fetchRaw(user, '/download/pew_script.cfg');
    expect(dl.status).toBe(200);
    expect(dl.text).toBe(content);
    expect(dl.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(dl.headers.get('content-disposition')).toBe(`attachment; filename="pew_script.cfg"; filename*=UTF-8''pew_script.cfg`);
  });

  it('writefile refuses what the editor refuses, with the same codes; the file stays as it was', async () => {
    const before = await read('pew_script.cfg');
    const cases: [unknown, string, string][] = [
      [{ content: 'a\u0000b' }, 'content', 'invalid_characters'],
      [{ content: 'x'.repeat(SCRIPT_MAX + 1) }, 'content', 'too_long'],
      [{ content: '\n'.repeat(SCRIPT_MAX / 2 + 1) }, 'content', 'too_long'], // JSON-escaped size over the limit
      [{ content: 5 }, 'content', 'type'],
      [{ content: 'ok', name: 'x.cfg' }, 'name', 'unknown_key'],
    ];
    for (const [body, path, code] of cases) {
      const r = await admin.post('/config/writefile', body);
      expect(r.status, code).toBe(400);
      expect(
        r.body.error.issues.map((i: { path: string; code: string }) => `${i.path}:${i.code}`),
        code,
      ).toContain(`${path}:${code}`);
    }
    const forbidden = await user.post('/config/writefile', { content: 'mine' });
    expect(forbidden.status).toBe(403);
    expect(await read('pew_script.cfg')).toBe(before);
  });

  it('saving the page (pew_script and script_file together) writes the text into the file the saved pew_script names', async () => {
    const script = (await admin.get('/config/pew_script')).body;
    const r = await admin.post('/config', {
      pew_script: { ...script, enable_script: true, script_file: 'line_a.cfg' },
      script_file: { content: '[cycle 120]\nread a = DT 5\n' },
    });
    expect(r.status, r.text).toBe(200);
    await d.ctx.scripts.settled();
    expect(await read('line_a.cfg')).toBe('[cycle 120]\nread a = DT 5\n');
    expect(await read('pew_script.cfg')).toMatch(/^# pew_script\.cfg/); // the other script is kept
    const dl = await fetchRaw(user, '/download/pew_script.cfg');
    expect(dl.text).toBe('[cycle 120]\nread a = DT 5\n');
    expect(dl.headers.get('content-disposition')).toContain('filename="line_a.cfg"');
    // a save of the text alone goes to the same file
    expect((await admin.post('/config/script_file', { content: '[init]\n' })).status).toBe(200);
    await d.ctx.scripts.settled();
    expect(await read('line_a.cfg')).toBe('[init]\n');
  });

  it('uploads: a .cfg file lands in the folder; one under the active name also becomes the script_file text', async () => {
    const other = await uploadScript(admin, 'night_shift.cfg', '# night\n[cycle 3600]\n');
    expect(other.status, other.text).toBe(200);
    expect(await read('night_shift.cfg')).toBe('# night\n[cycle 3600]\n');
    expect((await user.get('/config/script_file')).body.content).toBe('[init]\n');
    const active = await uploadScript(admin, 'line_a.cfg', '# uploaded\n[cycle 60]\n');
    expect(active.status, active.text).toBe(200);
    expect((await user.get('/config/script_file')).body.content).toBe('# uploaded\n[cycle 60]\n');
    await d.ctx.scripts.settled();
    expect(await read('line_a.cfg')).toBe('# uploaded\n[cycle 60]\n');
    const list = await user.get('/config/get_scripts');
    expect(list.body.active).toBe('line_a.cfg');
    expect(list.body.files.map((f: { name: string }) => f.name)).toEqual(['line_a.cfg', 'night_shift.cfg', 'pew_script.cfg']);
    const dl = await fetchRaw(user, '/download/scripts/night_shift.cfg');
    expect(dl.status).toBe(200);
    expect(dl.text).toBe('# night\n[cycle 3600]\n');
    for (const bad of ['..%2Fconfig%2Fpew.json', '.hidden.cfg', 'a%00.cfg', '..%5Cpew.json'])
      expect([400, 404], bad).toContain((await fetchRaw(user, `/download/scripts/${bad}`)).status);
    expect((await fetchRaw(user, '/download/scripts/none.cfg')).status).toBe(404);
    expect((await uploadScript(user, 'x.cfg', 'x')).status).toBe(403);
  });

  it('a restart keeps every script file as it was', async () => {
    const before = { a: await read('line_a.cfg'), n: await read('night_shift.cfg'), p: await read('pew_script.cfg') };
    await d.stop();
    await start();
    await d.ctx.scripts.settled();
    expect({ a: await read('line_a.cfg'), n: await read('night_shift.cfg'), p: await read('pew_script.cfg') }).toEqual(before);
    expect((await fetchRaw(user, '/download/pew_script.cfg')).text).toBe(before.a);
  });
});
