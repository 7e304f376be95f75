// `npm run image`: the signed device image (docs/firmware.md; security.md FW-1; spec §5 version
// compatibility). The console is built (build/web.ts, precompressed, its size report printed and
// its budget enforced), the daemon is bundled by esbuild into one file for the unit's Node, a
// manifest lists the version, the minimum app/BSP/HMI versions and the SHA-256 of every file, is
// signed with Ed25519, and everything is packed as `<out>/communicator-<version>.zip` with its
// `.md5`. The bundle shares its esbuild options with the other daemon bundles (build/node-bundle.ts).
// The release folder mirrors the checkout (dist/daemon/daemon.mjs beside dist/web), so the bundled
// daemon finds the console where it always looks (../../dist/web from its own file); the systemd
// unit that starts it on the unit (build/communicator.service) lies at the release's root.
//
// Options: --version X (stamp another version; default package.json's), --variant sim|unit (the
// simulator's daemon or the unit's; default sim), --out DIR (default dist/image), --key FILE (a
// PKCS#8 Ed25519 key; default the IMAGE_SIGNING_KEY environment variable holding the PEM, else the
// simulator's development key in data/firmware/, made on first use), and --allow-over-budget, a
// test-only switch: the web budget is reported but does not fail the build (docs/firmware.md).
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { ensureDevKey, isVersion, MANIFEST_FILE, MANIFEST_FORMAT, type Manifest, SIGNATURE_FILE, sha256, signManifest } from '../device/firmware/manifest.ts';
import { md5Of } from '../device/firmware/verify.ts';
import { MIN_VERSIONS } from '../device/model/versions.ts';
import { zip } from '../device/system/zip.ts';
import pkg from '../package.json' with { type: 'json' };
import { checkBudgets } from './budget.ts';
import { listFiles } from './gzip.ts';
import { FRAME_WORKER_ENTRY, NODE_BUNDLE } from './node-bundle.ts';
import { formatReport, type WebReport } from './report.ts';
import { buildWeb, REPORT_FILE } from './web.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_IMAGE_DIR = join(ROOT, 'dist', 'image');
/** the simulator's default data folder (device/options.ts DEFAULT_DATA_DIR), home of its development key */
export const SIM_DATA_DIR = join(ROOT, 'data');
export const DAEMON_ENTRY = 'dist/daemon/daemon.mjs';
/** the systemd unit of the daemon, at the root of every release (docs/production.md) */
export const SERVICE_FILE = 'communicator.service';
const ENTRIES = { sim: 'sim/main.ts', unit: 'device/unit.ts' } as const;
export type Variant = keyof typeof ENTRIES;

export interface ImageOptions {
  version?: string;
  variant?: Variant;
  outDir?: string;
  /** PKCS#8 PEM of the Ed25519 signing key */
  keyPem: string;
  /** test-only: report the web budget without failing (docs/firmware.md) */
  allowOverBudget?: boolean;
  /** a console built before (a dist/web-like folder with build.json): copied instead of built again */
  webFrom?: string;
  /** minimum versions the unit must have (default spec §5) */
  min?: Manifest['min'];
}

export interface ImageResult {
  zipFile: string;
  md5File: string;
  version: string;
  zipBytes: number;
  daemon: { bytes: number; gzipBytes: number };
  web: WebReport;
  overBudget: string[];
  ms: number;
}

/** Packs release files with a signed manifest; the archive and the content of its .md5. */
export function packImage(
  files: ReadonlyMap<string, Uint8Array>,
  meta: Omit<Manifest, 'format' | 'product' | 'files' | 'built'> & { built?: string },
  keyPem: string,
): { zip: Uint8Array; md5: string; manifest: Manifest; manifestBytes: Uint8Array; signature: string } {
  const paths = [...files.keys()].sort();
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    product: 'communicator',
    version: meta.version,
    variant: meta.variant,
    built: meta.built ?? new Date().toISOString(),
    min: meta.min,
    entry: meta.entry,
    files: paths.map((p) => ({ path: p, size: files.get(p)!.length, sha256: sha256(files.get(p)!) })),
  };
  const manifestBytes = new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`);
  const signature = signManifest(manifestBytes, keyPem);
  const archive = zip([
    { name: MANIFEST_FILE, data: manifestBytes },
    { name: SIGNATURE_FILE, data: signature },
    ...paths.map((p) => ({ name: p, data: files.get(p)! })),
  ]);
  return { zip: archive, md5: md5Of(archive), manifest, manifestBytes, signature };
}

/** esbuild: package.json with another version, so the bundled APP_VERSION is the image's. */
const stampVersion = (version: string): Plugin => ({
  name: 'stamp-version',
  setup(b) {
    b.onLoad({ filter: /[\\/]package\.json$/ }, async (args) => {
      if (resolve(args.path) !== join(ROOT, 'package.json')) return undefined;
      const json = JSON.parse(await readFile(args.path, 'utf8')) as Record<string, unknown>;
      return { contents: JSON.stringify({ ...json, version }), loader: 'json' };
    });
  },
});

/**
 * Bundles the daemon of `variant` into `outdir` (entry `daemon.mjs`, the first frame's thread
 * `first-frame-worker.mjs`, and the chunks the shared options may split off beside them); the
 * supervisor watch is loaded first.
 */
export async function bundleDaemon(variant: Variant, version: string, outdir: string): Promise<void> {
  const imports = [join(ROOT, 'device/firmware/supervised.ts'), join(ROOT, ENTRIES[variant])];
  await mkdir(outdir, { recursive: true });
  const entry = join(dirname(outdir), 'image-entry.ts');
  await writeFile(entry, `${imports.map((f) => `import ${JSON.stringify(f)};`).join('\n')}\n`);
  try {
    await build({
      ...NODE_BUNDLE,
      entryPoints: { daemon: entry, ...FRAME_WORKER_ENTRY },
      outdir,
      outExtension: { '.js': '.mjs' },
      minify: true,
      legalComments: 'none',
      logLevel: 'warning',
      plugins: [stampVersion(version)],
    });
  } finally {
    await rm(entry, { force: true });
  }
}

export async function buildImage(opts: ImageOptions): Promise<ImageResult> {
  const t0 = performance.now();
  const version = opts.version ?? pkg.version;
  if (!isVersion(version)) throw new Error(`--version must be dotted numbers like 1.5.1, got "${version}"`);
  const variant = opts.variant ?? 'sim';
  const outDir = resolve(opts.outDir ?? DEFAULT_IMAGE_DIR);
  const stage = join(outDir, `.stage-${version}`);
  await rm(stage, { recursive: true, force: true });
  const webDir = join(stage, 'dist', 'web');
  let web: WebReport;
  if (opts.webFrom) {
    await cp(opts.webFrom, webDir, { recursive: true });
    web = JSON.parse(await readFile(join(webDir, REPORT_FILE), 'utf8')) as WebReport;
  } else {
    web = await buildWeb({ outDir: webDir });
  }
  const overBudget = checkBudgets(web, web.budgets);
  if (overBudget.length && !opts.allowOverBudget) {
    await rm(stage, { recursive: true, force: true });
    throw Object.assign(new Error(overBudget.join('; ')), { report: web, overBudget });
  }
  const daemonDir = join(stage, dirname(DAEMON_ENTRY));
  await bundleDaemon(variant, version, daemonDir);

  const files = new Map<string, Uint8Array>();
  for (const f of await listFiles(webDir, [REPORT_FILE])) {
    files.set(`dist/web/${f}`, await readFile(join(webDir, f)));
    const gz = await readFile(join(webDir, `${f}.gz`)).catch(() => undefined);
    if (gz) files.set(`dist/web/${f}.gz`, gz);
  }
  let daemonBytes = 0;
  let daemonGzip = 0;
  for (const f of await listFiles(daemonDir)) {
    const data = await readFile(join(daemonDir, f));
    files.set(`${dirname(DAEMON_ENTRY)}/${f}`, data);
    daemonBytes += data.length;
    daemonGzip += gzipSync(data, { level: 9 }).length;
  }
  if (!files.has(DAEMON_ENTRY)) throw new Error(`the daemon bundle wrote no ${DAEMON_ENTRY}`);
  files.set(SERVICE_FILE, await readFile(join(ROOT, 'build', SERVICE_FILE)));
  const packed = packImage(files, { version, variant, min: opts.min ?? { ...MIN_VERSIONS }, entry: DAEMON_ENTRY }, opts.keyPem);
  await mkdir(outDir, { recursive: true });
  const name = `communicator-${version}`;
  const zipFile = join(outDir, `${name}.zip`);
  const md5File = join(outDir, `${name}.md5`);
  await writeFile(zipFile, packed.zip);
  await writeFile(md5File, `${packed.md5}  ${name}.zip\n`);
  await rm(stage, { recursive: true, force: true });
  return {
    zipFile,
    md5File,
    version,
    zipBytes: packed.zip.length,
    daemon: { bytes: daemonBytes, gzipBytes: daemonGzip },
    web,
    overBudget,
    ms: performance.now() - t0,
  };
}

/** The signing key of `npm run image`: --key FILE, IMAGE_SIGNING_KEY (PEM), or the simulator's development key. */
export async function signingKey(keyFile: string | undefined, env: NodeJS.ProcessEnv): Promise<{ pem: string; from: string }> {
  if (keyFile) return { pem: await readFile(keyFile, 'utf8'), from: keyFile };
  if (env.IMAGE_SIGNING_KEY?.trim()) return { pem: env.IMAGE_SIGNING_KEY, from: 'IMAGE_SIGNING_KEY' };
  return { pem: await ensureDevKey(SIM_DATA_DIR), from: "the simulator's development key (data/firmware/)" };
}

export function formatImageReport(r: ImageResult): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const rows = [
    ['part', 'raw', 'gzip'],
    ['daemon (dist/daemon/)', kb(r.daemon.bytes), kb(r.daemon.gzipBytes)],
    [`web assets (${r.web.files.length} files)`, kb(r.web.total.bytes), kb(r.web.total.gzipBytes)],
    [`image ${relative(process.cwd(), r.zipFile)}`, kb(r.zipBytes), ''],
  ];
  const w = [0, 1, 2].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row
        .map((c, i) => (i ? c.padStart(w[i]!) : c.padEnd(w[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      version: { type: 'string' },
      variant: { type: 'string' },
      out: { type: 'string' },
      key: { type: 'string' },
      'allow-over-budget': { type: 'boolean' },
    },
    strict: true,
  });
  if (values.variant && !(values.variant in ENTRIES)) {
    console.error(`--variant must be sim or unit, got "${values.variant}"`);
    process.exit(2);
  }
  try {
    const key = await signingKey(values.key, process.env);
    const r = await buildImage({
      version: values.version,
      variant: values.variant as Variant | undefined,
      outDir: values.out,
      keyPem: key.pem,
      allowOverBudget: values['allow-over-budget'],
    });
    console.log(formatReport(r.web));
    for (const m of r.overBudget) console.error(`WARNING (--allow-over-budget): ${m}`);
    console.log(`\n${formatImageReport(r)}`);
    console.log(`\nimage ${r.version} signed with ${key.from}: ${relative(process.cwd(), r.zipFile)} + .md5 (${(r.ms / 1000).toFixed(1)} s)`);
  } catch (e) {
    const err = e as Error & { report?: WebReport; overBudget?: string[] };
    if (err.report) console.log(formatReport(err.report));
    for (const m of err.overBudget ?? [err.message.split('\n')[0]!]) console.error(`ERROR: ${m}`);
    console.error('image build failed');
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
