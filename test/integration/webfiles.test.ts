// The uploaded HTTP server files from the console's side (spec §3 session level "the uploaded HTTP
// files list", §7 get_http_content, delete_user_webfiles): listed with sizes, deleted by name or
// all at once, every name checked before anything is removed (security.md DL-1), the user role
// refused.
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Client, startTestDaemon, type TestDaemon } from '../support/daemon.ts';

let d: TestDaemon;
let admin: Client;
let http: string;

const files = async () => (await readdir(http)).sort();

beforeAll(async () => {
  d = await startTestDaemon();
  admin = await d.admin();
  http = join(d.dataDir, 'http');
});

afterAll(async () => {
  await d?.stop();
});

beforeEach(async () => {
  await mkdir(http, { recursive: true });
  for (const f of await readdir(http)) await rm(join(http, f), { force: true });
  await writeFile(join(http, 'index.html'), '<p>hi</p>');
  await writeFile(join(http, 'app.js'), 'x');
  await writeFile(join(http, 'logo.png'), Buffer.alloc(1000));
});

describe('get_http_content', () => {
  it('lists the files with their sizes, sorted by name; hidden files and links out are left out', async () => {
    await writeFile(join(http, '.tmp-upload'), 'partial');
    await writeFile(join(d.dataDir, 'outside.txt'), 'secret');
    await symlink(join(d.dataDir, 'outside.txt'), join(http, 'out.txt'));
    const r = await admin.get('/config/get_http_content');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      files: [
        { name: 'app.js', size: 1 },
        { name: 'index.html', size: 9 },
        { name: 'logo.png', size: 1000 },
      ],
    });
    expect((await (await d.user()).get('/config/get_http_content')).body.files).toHaveLength(3);
  });
});

describe('delete_user_webfiles', () => {
  it('deletes the named files and answers the list left', async () => {
    const r = await admin.post('/config/delete_user_webfiles', { names: ['app.js', 'logo.png'] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ deleted: ['app.js', 'logo.png'], files: [{ name: 'index.html', size: 9 }] });
    expect(await files()).toEqual(['index.html']);
  });

  it('deletes every file with all: true', async () => {
    const r = await admin.post('/config/delete_user_webfiles', { all: true });
    expect(r.body.deleted).toEqual(['app.js', 'index.html', 'logo.png']);
    expect(await files()).toEqual([]);
  });

  it('removes a link, never its target', async () => {
    await symlink(join(http, 'app.js'), join(http, 'alias.js'));
    const r = await admin.post('/config/delete_user_webfiles', { names: ['alias.js'] });
    expect(r.body.deleted).toEqual(['alias.js']);
    expect(await readFile(join(http, 'app.js'), 'utf8')).toBe('x');
  });

  it('removes nothing when one name is bad or missing', async () => {
    await writeFile(join(d.dataDir, 'keep.txt'), 'keep');
    for (const [names, status, code, path] of [
      [['app.js', '../keep.txt'], 400, 'invalid_file_name', 'names.1'],
      [['app.js', '..'], 400, 'invalid_file_name', 'names.1'],
      [['app.js', 'a/b'], 400, 'invalid_file_name', 'names.1'],
      [['nothing.js', 'app.js'], 404, 'file_not_found', 'names.0'],
    ] as const) {
      const r = await admin.post('/config/delete_user_webfiles', { names });
      expect([r.status, r.body.error.code, r.body.error.issues[0].path], names.join()).toEqual([status, code, path]);
    }
    expect(await files()).toEqual(['app.js', 'index.html', 'logo.png']);
    expect(await readFile(join(d.dataDir, 'keep.txt'), 'utf8')).toBe('keep');
  });

  it('refuses a body that is neither names nor all', async () => {
    for (const body of [{}, { names: [] }, { names: ['a'], all: true }, { all: false }, { names: 'app.js' }, { names: ['a'], extra: 1 }]) {
      const r = await admin.post('/config/delete_user_webfiles', body);
      expect([r.status, r.body.error.code], JSON.stringify(body)).toEqual([400, 'invalid_input']);
    }
    expect(await files()).toEqual(['app.js', 'index.html', 'logo.png']);
  });

  it('is refused for the user role and without a session', async () => {
    const user = await d.user();
    const r = await user.post('/config/delete_user_webfiles', { all: true });
    expect([r.status, r.body.error.code]).toEqual([403, 'forbidden']);
    expect((await d.client().post('/config/delete_user_webfiles', { all: true })).status).toBe(401);
    expect(await files()).toEqual(['app.js', 'index.html', 'logo.png']);
  });
});
