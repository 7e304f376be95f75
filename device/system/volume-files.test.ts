import { mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileInside, isPlainName, listFolder, NAME_MAX_BYTES, nameProblem, openInside, type Refusal, RefusedName, resolveInside } from './volume-files.ts';

/** The reason resolveInside gives for `name`, or 'ok:<real path>'. */
async function outcome(root: string, name: string): Promise<Refusal | `ok:${string}`> {
  try {
    return `ok:${await resolveInside(root, name)}`;
  } catch (e) {
    if (e instanceof RefusedName) return e.reason;
    throw e;
  }
}

describe('nameProblem (DL-1: one plain path component)', () => {
  it('accepts the names the logger and the format files use, and ordinary unicode', () => {
    for (const name of [
      'data_20260101.csv',
      'Line1_2026-W03.csv',
      'format.cfg',
      'a',
      'Messwerte_Größe.csv',
      '温度_202601.csv',
      '100%.csv',
      'a..b.csv',
      'x'.repeat(255),
    ]) {
      expect(nameProblem(name), name).toBeUndefined();
    }
  });

  it('refuses each kind of hostile name with its reason', () => {
    const cases: [unknown, string][] = [
      ['', 'empty'],
      [undefined, 'empty'],
      [42, 'empty'],
      ['../x', 'path separator'],
      ['/etc/passwd', 'path separator'],
      ['a/../../b', 'path separator'],
      ['..\\x', 'path separator'],
      ['C:\\Windows\\win.ini', 'path separator'],
      ['x\0.csv', 'control character'],
      ['x\r\nSet-Cookie: a=b', 'control character'],
      ['tab\there', 'control character'],
      ['del\x7f', 'control character'],
      ['c1\x85', 'control character'],
      ['\uD800.csv', 'not unicode text'],
      ['x\uDC00', 'not unicode text'],
      ['.', 'starts with a dot'],
      ['..', 'starts with a dot'],
      ['...', 'starts with a dot'],
      ['.hidden.csv', 'starts with a dot'],
      ['..%2fx', 'starts with a dot'],
      ['x..%2fy', 'percent escape'],
      ['%2e%2e', 'percent escape'],
      ['a%5cb', 'percent escape'],
      ['x%00.csv', 'percent escape'],
      ['x'.repeat(256), 'too long'],
      ['ä'.repeat(128), 'too long'], // 256 bytes in UTF-8, 128 characters
    ];
    for (const [name, why] of cases) expect(nameProblem(name), JSON.stringify(name)).toBe(why);
    expect(Buffer.byteLength('ä'.repeat(127), 'utf8')).toBeLessThanOrEqual(NAME_MAX_BYTES);
    expect(nameProblem('ä'.repeat(127))).toBeUndefined();
  });

  it('property: every accepted name is exactly one component below any root', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('.', '/', '\\', '%', '2', 'f', 'e', 'a', '\0', 'é', '\n', ' ', '😀'), maxLength: 12 }), (name) => {
        if (!isPlainName(name)) return;
        expect(basename(name)).toBe(name);
        expect(dirname(join('/root', name))).toBe('/root');
        expect(join('/root', name)).toBe(`/root/${name}`);
        expect(name).not.toMatch(/[/\\\0]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a name holding a separator, NUL or starting with a dot is never accepted', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('/', '\\', '\0'), fc.string(), (a, bad, b) => {
        expect(isPlainName(a + bad + b)).toBe(false);
        expect(isPlainName(`.${a}`)).toBe(false);
      }),
    );
  });
});

describe('resolveInside, fileInside, openInside, listFolder (real folders)', () => {
  let base: string;
  let root: string;
  let outside: string;
  beforeAll(async () => {
    base = await mkdtemp(join(tmpdir(), 'volume-files-'));
    root = join(base, 'vol', 'log');
    outside = join(base, 'secret');
    await mkdir(root, { recursive: true });
    await mkdir(outside);
    await writeFile(join(outside, 'passwd'), 'root:x:0:0\n');
    await writeFile(join(root, 'b_20260102.csv'), 'bbb');
    await writeFile(join(root, 'a_20260101.csv'), 'a');
    await writeFile(join(root, '.hidden'), 'h');
    await writeFile(join(root, 'back\\slash.csv'), 'x'); // a legal Linux name no route can address
    await mkdir(join(root, 'sub'));
    await writeFile(join(root, 'sub', 'deep.csv'), 'deep');
    await symlink(join(outside, 'passwd'), join(root, 'out.csv'));
    await symlink('../../secret/passwd', join(root, 'rel_out.csv'));
    await symlink(outside, join(root, 'outdir'));
    await symlink('a_20260101.csv', join(root, 'latest.csv'));
    await symlink('sub/deep.csv', join(root, 'deep_link.csv'));
    await symlink('gone.csv', join(root, 'dangling.csv'));
    await symlink('loop2', join(root, 'loop1'));
    await symlink('loop1', join(root, 'loop2'));
    await symlink('.', join(root, 'self'));
    await utimes(join(root, 'a_20260101.csv'), 1_700_000_000, 1_700_000_000.5);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it('resolves plain names to their real path inside the folder', async () => {
    expect(await outcome(root, 'a_20260101.csv')).toBe(`ok:${join(root, 'a_20260101.csv')}`);
    expect(await outcome(root, 'latest.csv')).toBe(`ok:${join(root, 'a_20260101.csv')}`);
    expect(await outcome(root, 'deep_link.csv')).toBe(`ok:${join(root, 'sub', 'deep.csv')}`);
  });

  it('refuses links out of the folder, loops and a link to the folder itself', async () => {
    expect(await outcome(root, 'out.csv')).toBe('outside');
    expect(await outcome(root, 'rel_out.csv')).toBe('outside');
    expect(await outcome(root, 'outdir')).toBe('outside');
    expect(await outcome(root, 'loop1')).toBe('outside');
    expect(await outcome(root, 'self')).toBe('outside');
  });

  it('reports missing files, dangling links and a missing folder as missing; bad names as invalid', async () => {
    expect(await outcome(root, 'nope.csv')).toBe('missing');
    expect(await outcome(root, 'dangling.csv')).toBe('missing');
    expect(await outcome(join(base, 'no-such-folder'), 'a_20260101.csv')).toBe('missing');
    expect(await outcome(join(root, 'a_20260101.csv'), 'x')).toBe('missing'); // the "folder" is a file
    for (const name of ['../secret/passwd', '..', '', 'x\0', '..%2fsecret', join(outside, 'passwd'), 'back\\slash.csv']) {
      expect(await outcome(root, name), name).toBe('invalid_name');
    }
  });

  it('works when the folder path itself goes through a link', async () => {
    const linked = join(base, 'linked-vol');
    await symlink(join(base, 'vol'), linked);
    expect(await outcome(join(linked, 'log'), 'b_20260102.csv')).toBe(`ok:${join(root, 'b_20260102.csv')}`);
    expect(await outcome(join(linked, 'log'), 'out.csv')).toBe('outside');
  });

  it('fileInside wants a regular file and keeps the link itself as the entry', async () => {
    const f = await fileInside(root, 'latest.csv');
    expect(f).toEqual({ name: 'latest.csv', path: join(root, 'a_20260101.csv'), entry: join(root, 'latest.csv'), size: 1, mtime: 1_700_000_000_500 });
    await expect(fileInside(root, 'sub')).rejects.toMatchObject({ reason: 'missing' });
    await expect(fileInside(root, 'out.csv')).rejects.toMatchObject({ reason: 'outside' });
  });

  it('openInside reads the file and refuses what resolveInside refuses', async () => {
    const { handle, size } = await openInside(root, 'b_20260102.csv');
    try {
      expect(size).toBe(3);
      expect((await handle.readFile()).toString()).toBe('bbb');
    } finally {
      await handle.close();
    }
    await expect(openInside(root, 'out.csv')).rejects.toMatchObject({ reason: 'outside' });
    await expect(openInside(root, 'sub')).rejects.toMatchObject({ reason: 'missing' });
    await expect(openInside(root, '../secret/passwd')).rejects.toMatchObject({ reason: 'invalid_name' });
  });

  it('listFolder lists regular files and links to files inside, sorted, with size and mtime', async () => {
    expect(await listFolder(root)).toEqual([
      { name: 'a_20260101.csv', size: 1, mtime: 1_700_000_000_500 },
      { name: 'b_20260102.csv', size: 3, mtime: expect.any(Number) },
      { name: 'deep_link.csv', size: 4, mtime: expect.any(Number) },
      { name: 'latest.csv', size: 1, mtime: 1_700_000_000_500 },
    ]);
  });

  it('listFolder of a missing folder or of a file is empty', async () => {
    expect(await listFolder(join(base, 'none'))).toEqual([]);
    expect(await listFolder(join(root, 'a_20260101.csv'))).toEqual([]);
  });

  it('property: whatever the name, a resolved path is inside the folder and never the secret', async () => {
    const unit = fc.constantFrom(
      '.',
      '/',
      '\\',
      '%',
      '2',
      'f',
      '5',
      'c',
      'e',
      '\0',
      'a',
      'out',
      'rel_out.csv',
      'latest.csv',
      'secret',
      'passwd',
      '..',
      'sub',
      'é',
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 8 }), async (name) => {
        const r = await outcome(root, name);
        if (r.startsWith('ok:')) {
          expect(r.slice(3).startsWith(root + sep)).toBe(true);
          const text = await readFile(r.slice(3), 'utf8').catch((e: NodeJS.ErrnoException) => e.code ?? 'error'); // a folder: EISDIR
          expect(text.includes('root:x')).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
