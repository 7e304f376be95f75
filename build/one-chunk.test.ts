import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLazyModules, lazyModulesImportEntry } from './one-chunk.ts';

// A console in miniature: the entry imports its texts statically, and a generated loader imports the
// same texts lazily (as typesafe-i18n's does); a page shares the texts; another lazy module shares nothing.
const SOURCES: Record<string, string> = {
  'main.ts': `import { texts } from './texts.ts';
    (globalThis as any).order.push('main:' + texts.hello);
    export const loaded = Promise.all([import('./texts.ts'), import('./page.ts'), import('./alone.ts')]);`,
  'texts.ts': `(globalThis as any).order.push('texts'); export const texts = { hello: 'hi' }; export default texts;`,
  'page.ts': `import { texts } from './texts.ts'; (globalThis as any).order.push('page:' + texts.hello); export default 'page';`,
  'alone.ts': `(globalThis as any).order.push('alone'); export const alone = 1;`,
};

describe('one chunk for the first load', () => {
  let src = '';
  let out = '';
  beforeAll(async () => {
    src = await mkdtemp(join(tmpdir(), 'one-chunk-'));
    out = join(src, 'out');
    await mkdir(out);
    for (const [name, text] of Object.entries(SOURCES)) await writeFile(join(src, name), text);
  });
  afterAll(() => rm(src, { recursive: true, force: true }));

  it('puts the entry and all it reaches into the one chunk its lazy modules share, in the entry order', async () => {
    const entry = join(src, 'main.ts');
    const options = {
      absWorkingDir: src,
      entryPoints: [entry],
      outdir: out,
      bundle: true,
      splitting: true,
      format: 'esm',
      outExtension: { '.js': '.mjs' }, // Node runs the result as modules
      metafile: true,
      logLevel: 'silent',
    } satisfies BuildOptions;
    const lazy = await findLazyModules(options, entry, src);
    expect([...lazy.outside]).toEqual([join(src, 'page.ts')]); // alone.ts shares nothing with the entry
    expect([...lazy.inside]).toEqual([[join(src, 'texts.ts'), ['default', 'texts']]]);

    const { metafile } = await build({ ...options, plugins: [lazyModulesImportEntry(lazy, entry)] });
    const holding = (m: string) => Object.keys(metafile.outputs).filter((k) => (metafile.outputs[k]!.inputs[m]?.bytesInOutput ?? 0) > 0);
    const [shell] = holding('main.ts');
    expect(holding('main.ts')).toHaveLength(1);
    expect(holding('texts.ts')).toEqual([shell]);
    expect(holding('page.ts')).not.toEqual([shell]);

    // run it: the texts before the entry's code, each module once, the page after the entry
    const g = globalThis as unknown as { order: string[] };
    g.order = [];
    const shellModule = (await import(pathToFileURL(join(src, shell!)).href)) as Record<string, unknown>;
    const loaded = Object.values(shellModule).find((v) => v instanceof Promise) as Promise<[{ default: unknown }, unknown, unknown]>;
    const [texts] = await loaded;
    expect(texts.default).toEqual({ hello: 'hi' });
    expect(g.order.slice(0, 2)).toEqual(['texts', 'main:hi']);
    expect(g.order.slice(2).sort()).toEqual(['alone', 'page:hi']);
    // every output but the shell and alone.ts's imports the shell
    const files = (await readdir(out)).filter((f) => f.endsWith('.mjs'));
    const importing = await Promise.all(files.map(async (f) => (await readFile(join(out, f), 'utf8')).includes(shell!.replace(/^out\//, './'))));
    expect(importing.filter(Boolean).length).toBe(files.length - 2);
  });
});
