import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentType, isServableName, WebFiles } from './web-files.ts';

describe('isServableName', () => {
  it('takes hashed build names only', () => {
    for (const ok of ['main-AB12CD34.js', 'chunk-XYZ.js', 'app_1.css', 'index.html', 'logo.svg']) expect(isServableName(ok), ok).toBe(true);
    for (const bad of ['', '.', '..', '.hidden', '../x', '..%2Fx', 'a/b', 'a\\b', 'a..b.js', 'x\0.js', 'a b.js', 'main.js.gz', 'é.js'])
      expect(isServableName(bad), bad).toBe(false);
  });

  it('knows the content types of a build', () => {
    expect(contentType('a.js')).toBe('text/javascript; charset=utf-8');
    expect(contentType('a.CSS')).toBe('text/css; charset=utf-8');
    expect(contentType('a.woff2')).toBe('font/woff2');
    expect(contentType('a.bin')).toBe('application/octet-stream');
  });

  it('knows the types of the files a technician uploads for the HTTP server', () => {
    const want: Record<string, string> = {
      'plant.HTM': 'text/html; charset=utf-8',
      'logo.gif': 'image/gif',
      'manual.pdf': 'application/pdf',
      'trend.csv': 'text/csv; charset=utf-8',
      'photo.jpeg': 'image/jpeg',
      'photo.jpg': 'image/jpeg',
      'data.json': 'application/json',
      'a.xyz': 'application/octet-stream',
      Makefile: 'application/octet-stream',
      'archive.tar.gz': 'application/gzip',
    };
    for (const [name, type] of Object.entries(want)) expect(contentType(name), name).toBe(type);
  });
});

describe('WebFiles', () => {
  let root = '';
  let files: WebFiles;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'web-files-'));
    await mkdir(join(root, 'web', 'assets'), { recursive: true });
    await writeFile(join(root, 'secret.txt'), 'secret');
    await writeFile(join(root, 'web', 'index.html'), '<p>one</p>');
    const js = 'console.log(1);'.repeat(20);
    await writeFile(join(root, 'web', 'assets', 'a-1.js'), js);
    await writeFile(join(root, 'web', 'assets', 'a-1.js.gz'), gzipSync(js));
    await mkdir(join(root, 'web', 'assets', 'dir.js'));
    files = new WebFiles(join(root, 'web'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('reads a file with its gzip twin once and keeps it', async () => {
    const a = await files.get('assets/a-1.js');
    expect(a?.type).toBe('text/javascript; charset=utf-8');
    expect(a?.gzip?.etag).toBe(a?.plain.etag.replace(/"$/, '-gz"'));
    expect(await files.get('assets/a-1.js')).toBe(a);
  });

  it('finds nothing outside the folder, in folders or missing', async () => {
    for (const sub of [
      '../secret.txt',
      'assets/../../secret.txt',
      'assets/..',
      '/secret.txt',
      'assets//a-1.js',
      'assets/dir.js',
      'assets/none.js',
      'assets/a-1.js.gz',
    ])
      expect(await files.get(sub), sub).toBeUndefined();
  });

  it('re-reads a revalidated file when it changed', async () => {
    expect(new TextDecoder().decode((await files.get('index.html', true))!.plain.body)).toBe('<p>one</p>');
    await writeFile(join(root, 'web', 'index.html'), '<p>two!</p>');
    await utimes(join(root, 'web', 'index.html'), new Date(), new Date(Date.now() + 5000));
    expect(new TextDecoder().decode((await files.get('index.html', true))!.plain.body)).toBe('<p>two!</p>');
  });
});
