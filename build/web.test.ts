import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_FRAME_FILE, FRAME_PRELOADS_FILE, FRAME_ROUTES, type FramePreloads } from '../device/model/first-frame.ts';
import { OTHER_PAGE_TEXT, writeWebFixture } from '../test/support/web-fixture.ts';
import { checkBudgets } from './budget.ts';
import { COMPILE_ON_LOAD } from './compile-hint.ts';
import { listFiles } from './gzip.ts';
import type { WebReport } from './report.ts';
import { buildOutput, buildWeb, REPORT_FILE } from './web.ts';

async function expectServable(out: string, report: WebReport): Promise<string> {
  const html = await readFile(join(out, 'index.html'), 'utf8');
  // every reference to a file must be a hashed asset that exists (inline data: URLs are no files)
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!).filter((r) => !r.startsWith('data:'));
  expect(refs.length).toBeGreaterThan(0);
  for (const ref of refs) {
    expect(ref).toMatch(/^assets\/[A-Za-z0-9_-]+-[A-Z0-9]{8}\.(js|css)$/);
    expect(existsSync(join(out, ref)), ref).toBe(true);
  }
  // the first frame renderer and the framed pages' preloads are the daemon's, never served: not in the report
  const files = await listFiles(out, [REPORT_FILE, FIRST_FRAME_FILE, FRAME_PRELOADS_FILE]);
  expect(report.files.map((f) => f.file).sort()).toEqual(files);
  for (const f of files) {
    const plain = await readFile(join(out, f));
    const gz = await readFile(join(out, `${f}.gz`));
    expect(gunzipSync(gz).equals(plain), f).toBe(true);
    expect(report.files.find((x) => x.file === f)).toMatchObject({ bytes: plain.length, gzipBytes: gz.length });
  }
  expect(JSON.parse(await readFile(join(out, REPORT_FILE), 'utf8'))).toEqual(report);
  return html;
}

describe('buildWeb', () => {
  let tmp = '';
  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'web-build-'));
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('builds a fixture console: hashed files, gzip twins, first load without the other page', async () => {
    const src = join(tmp, 'src');
    const out = join(tmp, 'fixture-out');
    await writeWebFixture(src);
    await mkdir(join(out, 'assets'), { recursive: true });
    await writeFile(join(out, 'assets', 'stale-OLD.js'), 'old build');
    const report = await buildWeb({ outDir: out, srcDir: src, firstLoadModules: ['pages/info.tsx', 'i18n/en/index.ts'] });
    const html = await expectServable(out, report);
    expect(html).toMatch(/<style>[^<]*#123456[^<]*<\/style>/); // the stylesheet, in the page
    expect(html).toMatch(/<link rel="modulepreload" href="assets\/chunk-\w+\.js">/);
    expect(existsSync(join(out, 'assets', 'stale-OLD.js'))).toBe(false);
    // the pages import the entry (the build adds it): the entry's code is in the chunk they share, which
    // index.html loads; the entry's own output, nothing but an import of that chunk, is not written
    const script = html.match(/<script type="module" src="([^"]+)"><\/script>/)![1]!;
    expect(script).toMatch(/^assets\/chunk-/);
    expect(await readFile(join(out, script), 'utf8')).toContain('"main",document.title');
    expect(report.files.filter((f) => /^assets\/main-/.test(f.file))).toEqual([]);
    expect(report.files.filter((f) => f.file.endsWith('.css'))).toEqual([]); // no file of it, nor a copy for the pages

    // index with the stylesheet, the entry with the shared code, info page, dictionary; not the other page
    const other = report.files.filter((f) => !f.firstLoad);
    expect(report.firstLoad.files).toHaveLength(4);
    expect(report.firstLoad.missingModules).toEqual([]);
    expect(other).toHaveLength(1);
    expect(await readFile(join(out, other[0]!.file), 'utf8')).toContain(OTHER_PAGE_TEXT);
    expect(report.firstLoad.gzipBytes).toBe(report.total.gzipBytes - other[0]!.gzipBytes);
    expect(checkBudgets(report)).toEqual([]);
    expect(checkBudgets(report, { firstLoadGzip: 100, totalGzip: 100 })).toHaveLength(2);

    // npm start (--quiet) prints nothing within the budgets; npm run build prints the size table
    expect(buildOutput(report, true, 'dist/web')).toEqual({ out: [], errors: [] });
    const loud = buildOutput(report, false, 'dist/web');
    expect(loud.out.join('\n')).toContain(other[0]!.file);
    expect(loud.errors).toEqual([]);
    // past a budget even npm start shows the table and the errors
    const over = buildOutput({ ...report, budgets: { firstLoadGzip: 100, totalGzip: 100 } }, true, 'dist/web');
    expect(over.out).toHaveLength(2);
    expect(over.errors).toEqual([expect.stringMatching(/^ERROR: first-load budget exceeded/), expect.stringMatching(/^ERROR: /)]);
  });

  it('builds the real console within its budgets', async () => {
    const out = join(tmp, 'web-out');
    const report = await buildWeb({ outDir: out });
    await expectServable(out, report);
    expect(report.firstLoad.files).toContain('index.html');
    expect(checkBudgets(report)).toEqual([]);
    // the first frame renderer: one classic script with the framed pages and without the pages and
    // parts of the texts they do not load (device/api/first-frame.ts runs it)
    const renderer = await readFile(join(out, FIRST_FRAME_FILE), 'utf8');
    expect(renderer).toContain('renderFirstFrame');
    expect(renderer).not.toContain('not part of the first frame: pages/com.tsx');
    for (const lazy of ['pages/users.tsx', 'i18n/en/help/index.ts', 'shell/help.tsx']) expect(renderer).toContain(`not part of the first frame: ${lazy}`);
    // a classic script: an import or export statement would not compile
    expect(() => new Script(renderer)).not.toThrow();
    expect(renderer.length).toBeLessThan(640 * 1024);
    // the framed pages' preloads: each a built file that index.html does not load already
    const preloads = JSON.parse(await readFile(join(out, FRAME_PRELOADS_FILE), 'utf8')) as FramePreloads;
    expect(Object.keys(preloads).sort()).toEqual(FRAME_ROUTES.filter((r) => r !== 'info').sort());
    const index = await readFile(join(out, 'index.html'), 'utf8');
    for (const { common, locales } of Object.values(preloads))
      for (const f of [...common, ...Object.values(locales).flat()]) {
        expect(existsSync(join(out, f)), f).toBe(true);
        expect(index, f).not.toContain(f);
      }
    expect(existsSync(join(out, `${FIRST_FRAME_FILE}.gz`))).toBe(false);
    expect(checkBudgets(report, { firstLoadGzip: 1024, totalGzip: 150 * 1024 })[0]).toMatch(/^first-load budget exceeded/);
    // one script: the entry with the shell, the first page and the English common texts, all in the
    // chunk every lazy module shares (each imports the entry); nothing to preload; the stylesheet in
    // index.html: the first load is two files
    const scripts = report.firstLoad.files.filter((f) => f.endsWith('.js'));
    expect(scripts).toHaveLength(1);
    const html = await readFile(join(out, 'index.html'), 'utf8');
    expect(html).toContain(`<script type="module" src="${scripts[0]}"></script>`);
    expect(html).not.toContain('modulepreload');
    expect(report.firstLoad.files).toHaveLength(2);
    expect(report.files.filter((f) => f.file.endsWith('.css'))).toEqual([]);
    expect(html).toMatch(/<style>[^<]*--fs-body:[^<]*<\/style>/);
    const code = await readFile(join(out, scripts[0]!), 'utf8');
    expect(code).toContain('"System information"');
    expect(code).toContain('"info-syslog"'); // the first page's own markup
    // the pages opened later import that chunk (20 of them and more), and are no part of the first load
    const name = scripts[0]!.replace('assets/', './');
    const lazy = await Promise.all(report.files.filter((f) => !f.firstLoad && f.file.endsWith('.js')).map((f) => readFile(join(out, f.file), 'utf8')));
    expect(lazy.filter((c) => c.includes(`from"${name}"`)).length).toBeGreaterThan(20);
    // the first load's scripts carry V8's compile hint on their first line; a page opened later does not
    for (const f of report.files.filter((x) => x.file.endsWith('.js'))) {
      const code = await readFile(join(out, f.file), 'utf8');
      expect(code.startsWith(`${COMPILE_ON_LOAD}\n`), f.file).toBe(f.firstLoad);
      expect(code.indexOf(COMPILE_ON_LOAD, 1), f.file).toBe(-1);
    }
  });

  it('refuses to empty a folder holding the sources', async () => {
    await expect(buildWeb({ outDir: join(tmp, 'src', '..'), srcDir: join(tmp, 'src') })).rejects.toThrow(/refusing/);
  });
});
