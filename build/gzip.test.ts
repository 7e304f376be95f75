import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { gzipFile, listFiles } from './gzip.ts';

describe('precompression', () => {
  let dir = '';
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists files below the folder without .gz twins or skipped names, and writes a gzip twin', async () => {
    dir = await mkdtemp(join(tmpdir(), 'gzip-test-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<p>hi</p>'.repeat(50));
    await writeFile(join(dir, 'assets', 'a.js'), 'x');
    await writeFile(join(dir, 'assets', 'a.js.gz'), 'old');
    await writeFile(join(dir, 'build.json'), '{}');
    expect(await listFiles(dir, ['build.json'])).toEqual(['assets/a.js', 'index.html']);
    const size = await gzipFile(dir, 'index.html');
    const gz = await readFile(join(dir, 'index.html.gz'));
    expect(size).toEqual({ file: 'index.html', bytes: 450, gzipBytes: gz.length });
    expect(gunzipSync(gz).toString()).toBe('<p>hi</p>'.repeat(50));
  });
});
