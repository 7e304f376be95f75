import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  const files = await listFiles(out, [REPORT_FILE]);
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
    expect(html).toMatch(/<link rel="stylesheet" href="assets\/main-\w+\.css">/);
    expect(html).toMatch(/<link rel="modulepreload" href="assets\/chunk-\w+\.js">/);
    expect(existsSync(join(out, 'assets', 'stale-OLD.js'))).toBe(false);

    // index, main js, css, shared chunk, info page, dictionary; not the other page
    const other = report.files.filter((f) => !f.firstLoad);
    expect(report.firstLoad.files).toHaveLength(6);
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
    expect(checkBudgets(report, { firstLoadGzip: 1024, totalGzip: 150 * 1024 })[0]).toMatch(/^first-load budget exceeded/);
    // the shell is one chunk (web/shell-core.ts), not one per set of pages sharing a part of it; the
    // first page and the English common texts come with it: the entry, the shell and the texts
    const scripts = report.firstLoad.files.filter((f) => f.endsWith('.js'));
    expect(scripts.length, scripts.join(' ')).toBeLessThanOrEqual(3);
    // index.html preloads what the entry imports, the first page and the English texts with it
    const html = await readFile(join(out, 'index.html'), 'utf8');
    const preloaded = [...html.matchAll(/rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    expect(preloaded.sort()).toEqual(scripts.filter((f) => !f.startsWith('assets/main-')).sort()); // all but the entry
    const code = await Promise.all(preloaded.map((f) => readFile(join(out, f!), 'utf8')));
    expect(code.some((c) => c.includes('"System information"'))).toBe(true);
    expect(code.some((c) => c.includes('"info-syslog"'))).toBe(true); // the first page's own markup
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
