// `npm run build`: the console's production bundle. esbuild bundles web/main.tsx into hashed files
// under dist/web/assets, index.html is filled from the web/index.html template, every file gets a
// gzip twin, and the size report is printed, written to build.json and checked against the budgets.
// `--quiet` (npm start) prints nothing unless the build fails or a budget is exceeded.

import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { FIRST_FRAME_FILE, FRAME_PRELOADS_FILE, FRAME_ROUTES } from '../device/model/first-frame.ts';
import { BUDGETS, type Budgets, checkBudgets, FIRST_LOAD_MODULES, FIRST_LOAD_ROUTE } from './budget.ts';
import { metaPath as metaPathIn, outputsOfModule, pageFiles, staticClosure } from './closure.ts';
import { markCompileOnLoad } from './compile-hint.ts';
import { framePreloads } from './frame-preloads.ts';
import { gzipFile, listFiles } from './gzip.ts';
import { injectAssets } from './html.ts';
import { findLazyModules, lazyModulesImportEntry } from './one-chunk.ts';
import { ROUTES_FILE, readPageTexts } from './page-texts.ts';
import { formatReport, makeReport, type WebReport } from './report.ts';
import { minifiedTextCss } from './text-css.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_SRC_DIR = join(ROOT, 'web');
export const DEFAULT_OUT_DIR = join(ROOT, 'dist', 'web');
/** the report beside the assets; not served by the daemon, so not gzipped or counted */
export const REPORT_FILE = 'build.json';
/** the console's global stylesheet, relative to the source folder */
export const STYLESHEET = 'styles/app.css';

export interface BuildWebOptions {
  outDir: string;
  /** default true; false keeps the output readable when debugging */
  minify?: boolean;
  /** the console's source folder with main.tsx and index.html (default web/; tests pass fixtures) */
  srcDir?: string;
  budgets?: Budgets;
  /** lazy modules the first load needs (default FIRST_LOAD_MODULES; the fixture's tests name theirs) */
  firstLoadModules?: readonly string[];
}

const metaPath = (abs: string) => metaPathIn(ROOT, abs);

/**
 * typesafe-i18n's generated web/i18n/i18n-util.ts imports the package's locale detectors and
 * dictionary utilities, which the console does not use. Their modules only define functions, but the
 * package does not say so (no "sideEffects" in its package.json), so esbuild kept them in the first
 * load; marked free of side effects, what nothing uses is dropped.
 */
function i18nHelpersWithoutSideEffects(): Plugin {
  const helpers = /[\\/]node_modules[\\/]typesafe-i18n[\\/](detectors|utils)[\\/]/;
  return {
    name: 'i18n-helpers-without-side-effects',
    setup(b) {
      b.onResolve({ filter: /^(typesafe-i18n\/(detectors|utils)|\.\.?\/.*)$/ }, async (args) => {
        if (args.pluginData === 'resolving') return undefined;
        if (!(args.path.startsWith('typesafe-i18n/') || helpers.test(args.importer))) return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
        return r.errors.length || !helpers.test(r.path) ? undefined : { path: r.path, sideEffects: false };
      });
    },
  };
}

export async function buildWeb(opts: BuildWebOptions): Promise<WebReport> {
  const outDir = resolve(opts.outDir);
  const srcDir = resolve(opts.srcDir ?? DEFAULT_SRC_DIR);
  // the folder is emptied first (old hashed files must not pile up): never let that be a source folder
  if (outDir === ROOT || outDir === resolve('/') || srcDir === outDir || srcDir.startsWith(outDir + sep))
    throw new Error(`refusing to build into ${outDir}: it holds the sources`);
  await rm(outDir, { recursive: true, force: true });

  const entry = join(srcDir, 'main.tsx');
  // the global stylesheet is an entry of its own, not imported by main.tsx: every lazy module imports
  // the entry (lazyModulesImportEntry), and each would get a copy of a stylesheet the entry imports
  const stylesheet = join(srcDir, STYLESHEET);
  // browsers from 2021 on: ES2020 and more, module scripts, top-level await; nothing is polyfilled
  const target = ['chrome91', 'edge91', 'firefox90', 'safari15'];
  const options = {
    plugins: [i18nHelpersWithoutSideEffects(), minifiedTextCss(target)],
    // aliases resolve from the working directory: the repository root, where node_modules is
    absWorkingDir: ROOT,
    entryPoints: [entry, ...(existsSync(stylesheet) ? [stylesheet] : [])],
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: opts.minify ?? true,
    target,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    alias: { react: 'preact/compat', 'react-dom': 'preact/compat', 'react/jsx-runtime': 'preact/jsx-runtime' },
    define: { 'process.env.NODE_ENV': '"production"' },
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/chunk-[hash]',
    assetNames: 'assets/[name]-[hash]',
    loader: { '.svg': 'file', '.png': 'file', '.ico': 'file', '.woff2': 'file', '.woff': 'file' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  } satisfies BuildOptions;
  const lazy = await findLazyModules(options, entry, ROOT);
  const result = await build({ ...options, plugins: [lazyModulesImportEntry(lazy, entry), ...options.plugins] });
  const outputs = result.metafile.outputs;
  const toOut = (key: string) => relative(outDir, resolve(ROOT, key)).split(sep).join('/');

  const mainKey = Object.keys(outputs).find((k) => outputs[k]!.entryPoint === metaPath(entry));
  if (!mainKey) throw new Error(`esbuild wrote no output for ${entry}`);
  // the stylesheet goes into index.html (one request less while the page loads); its file is not kept
  const css = Object.keys(outputs).find((k) => outputs[k]!.entryPoint === metaPath(stylesheet));
  const style = css && (await readFile(resolve(ROOT, css), 'utf8'));
  if (css) {
    await rm(resolve(ROOT, css));
    delete outputs[css];
  }
  // the chunk with the entry's code (lazyModulesImportEntry): index.html loads it, and the entry's own
  // output, then holding no code but an import of that chunk, is not written
  const holdsCode = (k: string) => Object.values(outputs[k]!.inputs).some((i) => i.bytesInOutput > 0);
  const boot = holdsCode(mainKey) ? mainKey : (Object.keys(outputs).find((k) => (outputs[k]!.inputs[metaPath(entry)]?.bytesInOutput ?? 0) > 0) ?? mainKey);
  if (boot !== mainKey) {
    await rm(resolve(ROOT, mainKey));
    delete outputs[mainKey];
  }
  const firstLoadModules = opts.firstLoadModules ?? FIRST_LOAD_MODULES;
  const firstPage = firstLoadModules.flatMap((m) => outputsOfModule(outputs, metaPath(join(srcDir, m))).filter((k) => outputs[k]!.entryPoint));
  const preloads = [...new Set([boot, ...firstPage].flatMap((k) => staticClosure(outputs, k)))].filter((k) => k !== boot && k.endsWith('.js'));
  const template = await readFile(join(srcDir, 'index.html'), 'utf8');
  const html = injectAssets(template, { script: toOut(boot), style, preloads: preloads.map(toOut) });
  await writeFile(join(outDir, 'index.html'), html);
  // the entry and what index.html preloads run before the first page shows: compiled as they arrive
  await markCompileOnLoad(outDir, [boot, ...preloads].map(toOut));

  // the first frame renderer (web/first-frame.tsx) and the preloads of a deep link to a framed page,
  // beside index.html: the daemon's, never served, so not gzipped or counted
  await buildFirstFrame(options, srcDir, join(outDir, FIRST_FRAME_FILE));
  if (existsSync(join(srcDir, ROUTES_FILE))) {
    const frames = framePreloads({
      outputs,
      srcDir,
      metaPath,
      toOut,
      pages: await readPageTexts(srcDir),
      routes: FRAME_ROUTES.filter((r) => r !== 'info'),
      firstLoad: new Set([boot, ...firstPage.flatMap((k) => staticClosure(outputs, k)), ...preloads]),
    });
    await writeFile(join(outDir, FRAME_PRELOADS_FILE), `${JSON.stringify(frames)}\n`);
  }

  const sizes = await Promise.all((await listFiles(outDir, [REPORT_FILE, FIRST_FRAME_FILE, FRAME_PRELOADS_FILE])).map((f) => gzipFile(outDir, f)));
  const page = pageFiles(
    outputs,
    metaPath(entry),
    firstLoadModules.map((m) => metaPath(join(srcDir, m))),
  );
  const report = makeReport(
    sizes,
    {
      route: FIRST_LOAD_ROUTE,
      files: ['index.html', ...page.files.map(toOut)],
      missingModules: page.missing.map((m) => relative(srcDir, resolve(ROOT, m)).split(sep).join('/')),
    },
    opts.budgets ?? BUDGETS,
  );
  await writeFile(join(outDir, REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
  return report;
}

/**
 * What the first frame never loads: every module the console loads with import() but what the
 * framed pages (FRAME_ROUTES) load before their first render: their chunks, the parts of the
 * dictionary they need in each language and a language's common texts (web/i18n/<language>/…), the
 * configuration model, the settings pages' styles and the module the parts are loaded through
 * (web/i18n/parts.ts). The other pages, the help, the dialogs and the
 * other parts of the texts stay out of the renderer; an import of one there fails, and the daemon
 * then sends the page without a frame.
 */
function onlyTheFirstFrame(srcDir: string, parts: ReadonlySet<string>): Plugin {
  const allowed = (target: string): boolean => {
    const rel = relative(srcDir, target).split(sep).join('/');
    const text = /^i18n\/[a-z]{2}\/(?:([A-Za-z]+)\/)?index\.ts$/.exec(rel);
    if (text) return text[1] === undefined || parts.has(text[1]);
    return FRAME_ROUTES.some((r) => rel === `pages/${r}.tsx`) || ['state/model-parts.ts', 'styles/forms-sheet.ts', 'i18n/parts.ts'].includes(rel);
  };
  return {
    name: 'only-the-first-frame',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind !== 'dynamic-import') return undefined;
        const target = resolve(args.resolveDir, args.path);
        if (target.startsWith(srcDir + sep) && allowed(target)) return undefined;
        return { path: target, namespace: 'not-in-the-first-frame' };
      });
      b.onLoad({ filter: /.*/, namespace: 'not-in-the-first-frame' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`not part of the first frame: ${relative(srcDir, args.path)}`)});`,
        loader: 'js',
      }));
    },
  };
}

/**
 * The first frame renderer: the same sources and options as the console's bundle, as one classic
 * script (the daemon runs it in a V8 context, not as a module), without what the first frame never
 * loads. The framed pages await their first answer at the top of their modules, which an IIFE bundle
 * cannot hold: the bundle is an ES module with nothing imported or exported, run inside an async
 * function. A source folder without it (a test fixture) builds none.
 */
async function buildFirstFrame(options: BuildOptions, srcDir: string, outfile: string): Promise<void> {
  const entry = join(srcDir, 'first-frame.tsx');
  if (!existsSync(entry)) return;
  const { outdir: _outdir, entryNames: _e, chunkNames: _c, assetNames: _a, metafile: _m, ...rest } = options;
  const pages = await readPageTexts(srcDir);
  const parts = new Set(FRAME_ROUTES.flatMap((r) => pages.get(r)?.texts ?? []));
  const out = await build({
    ...rest,
    plugins: [onlyTheFirstFrame(srcDir, parts), ...(rest.plugins ?? [])],
    entryPoints: [entry],
    outfile,
    splitting: false,
    format: 'esm',
    metafile: false,
    write: false,
  });
  const code = out.outputFiles.find((f) => f.path.endsWith('.js'))?.text ?? '';
  if (/^\s*(?:import|export)\b/m.test(code)) throw new Error('the first frame renderer imports or exports: it must be one script');
  await writeFile(outfile, `(async()=>{${code}})();\n`);
}

/**
 * What the build prints: the size table, unless `quiet` (npm start) and within the budgets; every
 * exceeded budget as an error line.
 */
export function buildOutput(report: WebReport, quiet: boolean, outLabel: string): { out: string[]; errors: string[] } {
  const errors = checkBudgets(report, report.budgets).map((m) => `ERROR: ${m}`);
  const out = !quiet || errors.length > 0 ? [`console built into ${outLabel}\n`, formatReport(report)] : [];
  return { out, errors };
}

async function main(): Promise<void> {
  const quiet = process.argv.slice(2).includes('--quiet');
  let report: WebReport;
  try {
    report = await buildWeb({ outDir: DEFAULT_OUT_DIR });
  } catch (e) {
    // esbuild has already printed its errors with file and line
    console.error(`console build failed: ${(e as Error).message.split('\n')[0]}`);
    process.exit(1);
  }
  const { out, errors } = buildOutput(report, quiet, relative(process.cwd(), DEFAULT_OUT_DIR) || '.');
  for (const line of out) console.log(line);
  for (const line of errors) console.error(line);
  if (errors.length > 0) process.exit(1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
