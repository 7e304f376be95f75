// The log file routes over a real socket (spec §2 /log, §7; security.md DL-1): listing per volume
// and of all, an unmounted and a removed USB volume, deletes (admin only, all-or-nothing), byte-exact
// streamed downloads with their headers, and a traversal corpus against every name-based route.

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Volume } from '../../hw/types.ts';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { descriptorsOn } from '../support/descriptors.ts';

const SECRET = 'TOP-SECRET-6f1c';
const FIVE_MB = randomBytes(5 * 1024 * 1024);
const CSV = 'Date,Time,Temp\r\n2026/11/21,08:00:00,21.5\r\n2026/11/21,08:15:00,21.7\r\n';
const T1 = Date.UTC(2026, 10, 21, 8, 0, 0); // mtimes set below, in ms
const T2 = Date.UTC(2026, 10, 21, 9, 30, 0);

let d: TestDaemon;
let admin: Client;
let user: Client;
const vol = (id: string) => join(d.dataDir, 'volumes', id);
const logDir = (id: string) => join(vol(id), 'log');
const cfgDir = () => join(d.dataDir, 'logcfg');

async function put(file: string, content: string | Uint8Array, mtimeMs?: number): Promise<void> {
  await writeFile(file, content);
  if (mtimeMs !== undefined) await utimes(file, mtimeMs / 1000, mtimeMs / 1000);
}

/** Every file the tests must never see changed or served: outside the folders, and the folders' own. */
async function sentinels(): Promise<Record<string, string>> {
  const files = [
    join(d.dataDir, 'secret.txt'),
    join(vol('internal'), 'volume-root.csv'),
    join(d.dataDir, 'volumes', 'outside.csv'),
    join(logDir('internal'), 'a_20261121.csv'),
    join(logDir('internal'), 'b_20261122.csv'),
    join(logDir('internal'), '.hidden'),
    join(logDir('internal'), 'sub', 'deep.csv'),
    join(cfgDir(), 'format.cfg'),
    join(d.dataDir, 'outdir', 'inner.csv'),
  ];
  const out: Record<string, string> = {};
  for (const f of files)
    out[f] = await readFile(f, 'utf8').then(
      (t) => `${t.length}:${createHash('sha256').update(t).digest('hex')}`,
      () => 'absent',
    );
  return out;
}

/** A fresh tree: log folders of the three volumes, format files, secrets and links out. */
async function seed(): Promise<void> {
  for (const id of ['internal', 'usb', 'temp']) {
    await rm(vol(id), { recursive: true, force: true });
    await mkdir(logDir(id), { recursive: true });
  }
  await rm(cfgDir(), { recursive: true, force: true });
  await rm(join(d.dataDir, 'outdir'), { recursive: true, force: true });
  await mkdir(cfgDir(), { recursive: true });
  await mkdir(join(d.dataDir, 'outdir'), { recursive: true });
  await put(join(d.dataDir, 'secret.txt'), SECRET);
  await put(join(d.dataDir, 'outdir', 'inner.csv'), SECRET);
  await put(join(vol('internal'), 'volume-root.csv'), SECRET);
  await put(join(d.dataDir, 'volumes', 'outside.csv'), SECRET);
  const il = logDir('internal');
  await put(join(il, 'b_20261122.csv'), CSV + CSV, T2);
  await put(join(il, 'a_20261121.csv'), CSV, T1);
  await put(join(il, 'big_20261120.csv'), FIVE_MB, T1);
  await put(join(il, 'empty_20261119.csv'), '', T1);
  await put(join(il, 'Messwerte_Größe.csv'), 'ü\r\n', T1);
  await put(join(il, '.hidden'), SECRET);
  await mkdir(join(il, 'sub'));
  await put(join(il, 'sub', 'deep.csv'), 'deep');
  await put(join(logDir('usb'), 'stick_2026.csv'), CSV, T2);
  await put(join(cfgDir(), 'format.cfg'), '%DEF_SEPARATOR=;\r\n');
  // links: out of the folder (absolute and relative), to a folder outside, a loop, and one to a file inside
  for (const dir of [il, cfgDir()]) {
    await symlink(join(d.dataDir, 'secret.txt'), join(dir, 'out.csv'));
    await symlink(join(d.dataDir, 'outdir'), join(dir, 'outdir'));
    await symlink('loop_b', join(dir, 'loop_a'));
    await symlink('loop_a', join(dir, 'loop_b'));
  }
  await symlink('../../../secret.txt', join(il, 'rel_out.csv'));
  await symlink('../volume-root.csv', join(il, 'up.csv'));
  await symlink('a_20261121.csv', join(il, 'latest.csv'));
}

/** The body as bytes (the test client reads text). */
async function fetchBytes(c: Client, path: string) {
  const res = await fetch(c.base + path, { headers: c.cookie ? { cookie: c.cookie } : {} });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A request target sent exactly as written: no client-side normalisation of `..` or escapes. */
function rawGet(c: Client, target: string): Promise<{ status: number; text: string }> {
  const url = new URL(c.base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: target, headers: { cookie: c.cookie } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (b: Buffer) => chunks.push(b));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
  user = await d.user();
});
afterAll(() => d.stop());
beforeEach(seed);

describe('listing', () => {
  const internalFiles = () => [
    { name: 'Messwerte_Größe.csv', size: 4, mtime: T1 },
    { name: 'a_20261121.csv', size: CSV.length, mtime: T1 },
    { name: 'b_20261122.csv', size: 2 * CSV.length, mtime: T2 },
    { name: 'big_20261120.csv', size: FIVE_MB.length, mtime: T1 },
    { name: 'empty_20261119.csv', size: 0, mtime: T1 },
    { name: 'latest.csv', size: CSV.length, mtime: T1 }, // a link to a file of the folder: listed with its target
  ];

  it('GET /config/get_files_<volume> lists the regular files of each log folder, sorted by name', async () => {
    const intern = await user.get('/config/get_files_intern');
    expect(intern.status).toBe(200);
    expect(intern.body).toEqual({ storage: 0, mounted: true, files: internalFiles() });
    expect((await user.get('/config/get_files_usb')).body).toEqual({
      storage: 1,
      mounted: true,
      files: [{ name: 'stick_2026.csv', size: CSV.length, mtime: T2 }],
    });
    expect((await user.get('/config/get_files_temp')).body).toEqual({ storage: 2, mounted: true, files: [] });
  });

  it('GET /config/all_logfiles answers the three volumes in storage order', async () => {
    const r = await user.get('/config/all_logfiles');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      volumes: [
        { storage: 0, mounted: true, files: internalFiles() },
        { storage: 1, mounted: true, files: [{ name: 'stick_2026.csv', size: CSV.length, mtime: T2 }] },
        { storage: 2, mounted: true, files: [] },
      ],
    });
  });

  it('a volume without its log folder lists nothing', async () => {
    await rm(logDir('temp'), { recursive: true });
    expect((await user.get('/config/get_files_temp')).body).toEqual({ storage: 2, mounted: true, files: [] });
  });

  it('an unmounted USB volume (its folder unusable) is reported unmounted with no files', async () => {
    await rm(vol('usb'), { recursive: true });
    await writeFile(vol('usb'), 'not a folder'); // the simulator cannot create the folder: not mounted
    expect((await user.get('/config/get_files_usb')).body).toEqual({ storage: 1, mounted: false, files: [] });
    expect((await user.get('/config/all_logfiles')).body.volumes[1]).toEqual({ storage: 1, mounted: false, files: [] });
    expect((await fetchBytes(user, '/download/log/usb/stick_2026.csv')).status).toBe(404);
    const del = await admin.post('/config/delete_logfile', { storage: 1, names: ['stick_2026.csv'] });
    expect(del.status).toBe(404);
    expect(del.body.error.code).toBe('file_not_found');
    await rm(vol('usb'));
  });

  it('the files of a volume the hardware reports unmounted are neither listed nor served nor deleted', async () => {
    const hw = d.ctx.hw as { volumes: () => Promise<Volume[]> };
    const real = hw.volumes;
    hw.volumes = async () => (await real()).map((v) => (v.id === 'usb' ? { ...v, mounted: false } : v));
    try {
      expect((await user.get('/config/get_files_usb')).body).toEqual({ storage: 1, mounted: false, files: [] });
      const dl = await fetchBytes(user, '/download/log/usb/stick_2026.csv');
      expect(dl.status).toBe(404);
      expect(JSON.parse(dl.bytes.toString()).error.code).toBe('file_not_found');
      expect((await admin.post('/config/delete_logfile', { storage: 1, names: ['stick_2026.csv'] })).status).toBe(404);
      expect(await readdir(logDir('usb'))).toEqual(['stick_2026.csv']);
    } finally {
      hw.volumes = real;
    }
  });

  it('a removed USB stick folder comes back empty', async () => {
    await rm(vol('usb'), { recursive: true });
    expect((await user.get('/config/get_files_usb')).body).toEqual({ storage: 1, mounted: true, files: [] });
  });

  it('needs a session', async () => {
    for (const p of ['/config/get_files_intern', '/config/get_files_usb', '/config/get_files_temp', '/config/all_logfiles']) {
      expect((await d.client().get(p)).status, p).toBe(401);
    }
  });
});

describe('POST /config/delete_logfile', () => {
  const names = async () => (await readdir(logDir('internal'))).sort();

  it('deletes several files of one volume and reports them; the rest stays', async () => {
    const before = await names();
    const r = await admin.post('/config/delete_logfile', { storage: 0, names: ['a_20261121.csv', 'big_20261120.csv', 'a_20261121.csv'] });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ deleted: ['a_20261121.csv', 'big_20261120.csv'] });
    expect(await names()).toEqual(before.filter((n) => n !== 'a_20261121.csv' && n !== 'big_20261120.csv'));
    expect(await d.ctx.audit.read()).toContain('"action":"logfile_delete"');
  });

  it('deletes on the volume named by storage only', async () => {
    await put(join(logDir('temp'), 'a_20261121.csv'), CSV);
    const r = await admin.post('/config/delete_logfile', { storage: 2, names: ['a_20261121.csv'] });
    expect(r.body).toEqual({ deleted: ['a_20261121.csv'] });
    expect(await readdir(logDir('temp'))).toEqual([]);
    expect(await names()).toContain('a_20261121.csv');
    expect((await admin.post('/config/delete_logfile', { storage: 1, names: ['stick_2026.csv'] })).body).toEqual({ deleted: ['stick_2026.csv'] });
  });

  it('deleting a link inside the folder removes the link, never its target', async () => {
    const r = await admin.post('/config/delete_logfile', { storage: 0, names: ['latest.csv'] });
    expect(r.body).toEqual({ deleted: ['latest.csv'] });
    expect(await names()).not.toContain('latest.csv');
    expect(await readFile(join(logDir('internal'), 'a_20261121.csv'), 'utf8')).toBe(CSV);
  });

  it('the user role gets 403 and nothing is deleted', async () => {
    const before = await names();
    const r = await user.post('/config/delete_logfile', { storage: 0, names: ['a_20261121.csv'] });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('forbidden');
    expect(await names()).toEqual(before);
    expect((await d.client().post('/config/delete_logfile', { storage: 0, names: ['a_20261121.csv'] })).status).toBe(401);
  });

  it('one invalid name refuses the whole request with 400 invalid_file_name and deletes nothing', async () => {
    const before = await names();
    const r = await admin.post('/config/delete_logfile', { storage: 0, names: ['a_20261121.csv', '../secret.txt', 'b_20261122.csv'] });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_file_name');
    expect(r.body.error.issues).toEqual([{ path: 'names.1', code: 'invalid_file_name' }]);
    expect(await names()).toEqual(before);
  });

  it('a link out of the folder among good names is 400 and deletes nothing', async () => {
    const before = await names();
    const r = await admin.post('/config/delete_logfile', { storage: 0, names: ['a_20261121.csv', 'out.csv'] });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_file_name');
    expect(await names()).toEqual(before);
    expect(await readFile(join(d.dataDir, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('one missing name is 404 file_not_found and deletes nothing', async () => {
    const before = await names();
    const r = await admin.post('/config/delete_logfile', { storage: 0, names: ['a_20261121.csv', 'nope.csv', 'sub'] });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('file_not_found');
    expect(r.body.error.issues).toEqual([
      { path: 'names.1', code: 'file_not_found' },
      { path: 'names.2', code: 'file_not_found' },
    ]);
    expect(await names()).toEqual(before);
  });

  it('refuses malformed bodies with 400 invalid_input', async () => {
    const bad: unknown[] = [
      {},
      { storage: 0 },
      { names: ['a_20261121.csv'] },
      { storage: 3, names: ['a_20261121.csv'] },
      { storage: '0', names: ['a_20261121.csv'] },
      { storage: 0, names: [] },
      { storage: 0, names: 'a_20261121.csv' },
      { storage: 0, names: [1] },
      { storage: 0, names: Array.from({ length: 1001 }, (_, i) => `f${i}.csv`) },
      { storage: 0, names: ['a_20261121.csv'], extra: 1 },
      [],
    ];
    const before = await names();
    for (const body of bad) {
      const r = await admin.post('/config/delete_logfile', body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.error.code).toBe('invalid_input');
    }
    expect(await names()).toEqual(before);
  });

  it('takes 1000 names at once', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => `m_${String(i).padStart(4, '0')}.csv`);
    for (const n of many) await writeFile(join(logDir('temp'), n), 'x');
    const r = await admin.post('/config/delete_logfile', { storage: 2, names: many });
    expect(r.status).toBe(200);
    expect(r.body.deleted).toEqual(many);
    expect(await readdir(logDir('temp'))).toEqual([]);
  });
});

describe('downloads', () => {
  it('streams a log file byte for byte with the download headers', async () => {
    const r = await fetchBytes(user, '/download/log/intern/a_20261121.csv');
    expect(r.status).toBe(200);
    expect(r.bytes.toString('utf8')).toBe(CSV);
    expect(r.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="a_20261121.csv"; filename*=UTF-8''a_20261121.csv`);
    expect(r.headers.get('content-length')).toBe(String(CSV.length));
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('streams a 5 MB file exactly', async () => {
    const r = await fetchBytes(user, '/download/log/intern/big_20261120.csv');
    expect(r.status).toBe(200);
    expect(r.bytes.length).toBe(FIVE_MB.length);
    expect(r.bytes.equals(FIVE_MB)).toBe(true);
    expect(r.headers.get('content-length')).toBe(String(FIVE_MB.length));
  });

  it('closes the file of a HEAD request (answered without the body) and of a download the client gave up', async () => {
    // 5 MB: more than a stream reads ahead on its own, so only a close releases the file
    const big = join(logDir('internal'), 'big_20261120.csv');
    const head = await fetch(`${user.base}/download/log/intern/big_20261120.csv`, { method: 'HEAD', headers: { cookie: user.cookie } });
    expect([head.status, head.headers.get('content-length')]).toEqual([200, String(FIVE_MB.length)]);
    await expect.poll(() => descriptorsOn(big)).toBe(0);

    const gone = new AbortController();
    const res = await fetch(`${user.base}/download/log/intern/big_20261120.csv`, { headers: { cookie: user.cookie }, signal: gone.signal });
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false); // the stream is under way, the file open
    gone.abort();
    await reader.read().catch(() => undefined);
    await expect.poll(() => descriptorsOn(big)).toBe(0);
  });

  it('serves each volume, an empty file, a unicode name and a link to a file inside', async () => {
    expect((await fetchBytes(user, '/download/log/usb/stick_2026.csv')).bytes.toString()).toBe(CSV);
    const empty = await fetchBytes(user, '/download/log/intern/empty_20261119.csv');
    expect([empty.status, empty.bytes.length]).toEqual([200, 0]);
    const uni = await fetchBytes(user, `/download/log/intern/${encodeURIComponent('Messwerte_Größe.csv')}`);
    expect(uni.bytes.toString('utf8')).toBe('ü\r\n');
    expect(uni.headers.get('content-disposition')).toBe(`attachment; filename="Messwerte_Gr__e.csv"; filename*=UTF-8''Messwerte_Gr%C3%B6%C3%9Fe.csv`);
    expect((await fetchBytes(user, '/download/log/intern/latest.csv')).bytes.toString()).toBe(CSV);
  });

  it('streams a CSV format file from <data>/logcfg', async () => {
    const r = await fetchBytes(user, '/download/logcfg/format.cfg');
    expect(r.status).toBe(200);
    expect(r.bytes.toString()).toBe('%DEF_SEPARATOR=;\r\n');
    expect(r.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(r.headers.get('content-disposition')).toBe(`attachment; filename="format.cfg"; filename*=UTF-8''format.cfg`);
  });

  it('answers 404 for a missing file, a folder, an unknown volume; 401 without a session', async () => {
    const codes = async (p: string) => {
      const r = await fetchBytes(user, p);
      return [r.status, JSON.parse(r.bytes.toString()).error.code];
    };
    expect(await codes('/download/log/intern/nope.csv')).toEqual([404, 'file_not_found']);
    expect(await codes('/download/log/intern/sub')).toEqual([404, 'file_not_found']);
    expect(await codes('/download/log/temp/a_20261121.csv')).toEqual([404, 'file_not_found']);
    expect(await codes('/download/log/internal/a_20261121.csv')).toEqual([404, 'not_found']);
    expect(await codes('/download/logcfg/none.cfg')).toEqual([404, 'file_not_found']);
    expect((await fetchBytes(d.client(), '/download/log/intern/a_20261121.csv')).status).toBe(401);
    expect((await fetchBytes(d.client(), '/download/logcfg/format.cfg')).status).toBe(401);
  });

  it('get_cfg lists the format files through the same listing', async () => {
    expect((await user.get('/config/get_cfg')).body).toEqual({ files: ['format.cfg'] });
  });
});

describe('traversal corpus (DL-1) against every name-based route', () => {
  // each is a file name as a request would carry it after one URL decoding
  const CORPUS: string[] = [
    '../x',
    '..%2fx',
    '%2e%2e/x',
    '%2e%2e%2fsecret.txt',
    '..%252fsecret.txt',
    '/etc/passwd',
    'a/../../b',
    '../secret.txt',
    '../../secret.txt',
    '../../../secret.txt',
    '../../../../../../../../etc/passwd',
    '....//secret.txt',
    'x/../a_20261121.csv',
    'a_20261121.csv/',
    './a_20261121.csv',
    'sub/deep.csv',
    'x%00.csv',
    'x\0.csv',
    'secret.txt\0.csv',
    '..\\secret.txt',
    '..\\..\\..\\secret.txt',
    '%5c..%5csecret.txt',
    'C:\\Windows\\win.ini',
    '..%c0%afsecret.txt',
    '..%5c',
    'out.csv',
    'rel_out.csv',
    'up.csv',
    'outdir',
    'loop_a',
    '.hidden',
    '.',
    '..',
    '',
    '\r\nX-Injected: 1',
    'a\tb',
    'x'.repeat(256),
    'ä'.repeat(200),
    'y'.repeat(5000),
    '‥∕secret.txt',
    '．．／secret.txt',
    '\u202Evsc.exe',
    'sub',
    '$(touch pwned)',
    '`touch pwned`',
    'a_20261121.csv;rm -rf /',
    '~root',
    '\uD800',
  ];
  // '.', '..' and '' cannot be one path segment (the URL layer folds dot segments): the raw targets cover them
  const inPath = CORPUS.filter((n) => !['', '.', '..'].includes(n));
  const segment = (name: string) => (name === '\uD800' ? '%ED%A0%80' : encodeURIComponent(name));
  const unseen = (text: string) => {
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('root:x:');
    expect(text).not.toContain('[fonts]');
  };

  it('has at least 30 hostile names, and every route refuses each with 400 or 404', async () => {
    expect(inPath.length).toBeGreaterThanOrEqual(30);
    const before = await sentinels();
    const listing = await readdir(logDir('internal'));
    for (const name of CORPUS) {
      const del = await admin.post('/config/delete_logfile', { storage: 0, names: [name] });
      expect([400, 404], `delete ${JSON.stringify(name)}`).toContain(del.status);
      expect(['invalid_file_name', 'file_not_found', 'invalid_input']).toContain(del.body.error.code);
      unseen(del.text);
      // a hostile name beside a good one: the good one stays
      const mixed = await admin.post('/config/delete_logfile', { storage: 0, names: ['a_20261121.csv', name] });
      expect([400, 404], `delete mixed ${JSON.stringify(name)}`).toContain(mixed.status);
    }
    for (const name of inPath) {
      for (const prefix of ['/download/log/intern/', '/download/log/usb/', '/download/logcfg/']) {
        const r = await fetchBytes(user, prefix + segment(name));
        expect([400, 404], `${prefix}${JSON.stringify(name)}`).toContain(r.status);
        expect(['invalid_file_name', 'file_not_found']).toContain(JSON.parse(r.bytes.toString()).error.code);
        unseen(r.bytes.toString('latin1'));
      }
    }
    expect(await sentinels()).toEqual(before);
    expect(await readdir(logDir('internal'))).toEqual(listing);
    await expect(stat(join(d.dataDir, 'pwned'))).rejects.toThrow();
  });

  it('names are refused for the reason that applies: not a name 400, absent 404', async () => {
    const code = async (name: string) => (await admin.post('/config/delete_logfile', { storage: 0, names: [name] })).status;
    for (const name of [
      '../secret.txt',
      '..%2fx',
      'x\0.csv',
      '..\\secret.txt',
      'out.csv',
      'rel_out.csv',
      'up.csv',
      'outdir',
      'loop_a',
      '.hidden',
      '..',
      '',
      'x'.repeat(256),
    ]) {
      expect(await code(name), JSON.stringify(name)).toBe(400);
    }
    for (const name of ['sub', '‥∕secret.txt', '~root', 'nope.csv']) expect(await code(name), name).toBe(404);
  });

  it('raw request targets with dot segments and escapes never serve a file outside', async () => {
    const before = await sentinels();
    const targets = [
      '/download/log/intern/../../../secret.txt',
      '/download/log/intern/..%2f..%2f..%2fsecret.txt',
      '/download/log/intern/%2e%2e/%2e%2e/%2e%2e/secret.txt',
      '/download/log/intern/%2e%2e%2f%2e%2e%2f%2e%2e%2fsecret.txt',
      '/download/log/intern/..%5c..%5c..%5csecret.txt',
      '/download/log/intern/..\\..\\secret.txt',
      '/download/log/intern/a/../../../../secret.txt',
      '/download/log/intern//etc/passwd',
      '/download/log/intern/%2fetc%2fpasswd',
      '/download/log/intern/.',
      '/download/log/intern/..',
      '/download/log/intern/%2e%2e',
      '/download/log/intern/',
      '/download/log/..%2f..%2f..%2fsecret.txt/x',
      '/download/logcfg/../../secret.txt',
      '/download/logcfg/..%2f..%2fsecret.txt',
      '/download/logcfg/%2e%2e%2fsecret.txt',
      '/download/logcfg/x%00.cfg',
      '/download/logcfg/%252e%252e%252fsecret.txt',
      '/download/log/intern/%ED%A0%80',
      '/download/log/intern/%C0%AE%C0%AE%2fsecret.txt',
    ];
    for (const t of targets) {
      const r = await rawGet(user, t);
      // 400/404 from the file routes; a target the URL layer folds out of them reaches the catch-all of unknown downloads (404)
      expect([400, 404], t).toContain(r.status);
      unseen(r.text);
    }
    expect(await sentinels()).toEqual(before);
  });
});
