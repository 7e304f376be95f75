// Test support for the firmware update (docs/firmware.md): device images built once per file with
// a test signing key (the web budget reported, not enforced: the test-only option of build/image.ts),
// a supervisor (sim/supervisor.ts) started as a real child process over a temp root that trusts the
// test key, and the upload of a package with its .md5 over a real socket.
import { type ChildProcess, spawn } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildImage, type ImageResult } from '../../build/image.ts';
import { buildWeb } from '../../build/web.ts';
import { layoutOf } from '../../device/firmware/layout.ts';
import { newKeyPair, trustDirOf } from '../../device/firmware/manifest.ts';
import { ADMIN, Client } from './daemon.ts';
import { freePort, LOOPBACK } from './ports.ts';
import { writeWebFixture } from './web-fixture.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface TestImages {
  dir: string;
  keyPem: string;
  /** `version` → the image built for it */
  images: Map<string, ImageResult>;
}

/**
 * Builds one image per version signed with a fresh test key. The console is `webFrom` (a built
 * console folder with build.json, e.g. the e2e global setup's) or else a small fixture console
 * built once (test/support/web-fixture.ts): the update does not depend on what the pages hold.
 */
export async function buildTestImages(versions: readonly string[], opts: { webFrom?: string } = {}): Promise<TestImages> {
  const dir = await mkdtemp(join(tmpdir(), 'fw-images-'));
  const { privatePem } = newKeyPair();
  const images = new Map<string, ImageResult>();
  let webFrom = opts.webFrom;
  if (!webFrom) {
    webFrom = join(dir, 'web');
    await writeWebFixture(join(dir, 'web-src'));
    await buildWeb({ outDir: webFrom, srcDir: join(dir, 'web-src') });
  }
  for (const version of versions)
    images.set(version, await buildImage({ version, outDir: join(dir, version), keyPem: privatePem, allowOverBudget: true, webFrom }));
  return { dir, keyPem: privatePem, images };
}

export interface Supervisor {
  root: string;
  url: string;
  port: number;
  proc: ChildProcess;
  output: () => string;
  /** SIGTERM and wait (the daemon stops with it) */
  stop(): Promise<void>;
  /** SIGKILL of the supervisor alone: its daemon sees the IPC channel close and stops */
  kill(): Promise<void>;
}

/** A root that trusts `keyPem`'s public key (besides the simulator's development key). */
export async function makeRoot(keyPem: string): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'fw-root-'));
  const trust = trustDirOf(layoutOf(root).data);
  await mkdir(trust, { recursive: true });
  await writeFile(join(trust, 'test.pem'), createPublicKey(createPrivateKey(keyPem)).export({ type: 'spki', format: 'pem' }));
  return root;
}

/** Starts sim/supervisor.ts on `root` and waits until its daemon answers. */
export async function startSupervisor(root: string, opts: { image?: string; port?: number; startTimeoutMs?: number } = {}): Promise<Supervisor> {
  const port = opts.port ?? (await freePort());
  // the virtual COM4 PLC on ports of its own (0: any free one), never the simulator's fixed ones that
  // an `npm start` on the same machine holds
  const plcs = join(root, 'test-plcs.json');
  await writeFile(plcs, JSON.stringify({ COM4: { host: LOOPBACK, mewtocolPort: 0, modbusPort: 0 } }));
  const args = ['--import', 'tsx', join(ROOT, 'sim/supervisor.ts'), '--root', root, '--port', String(port), '--host', LOOPBACK, '--plcs', plcs];
  if (opts.image) args.push('--image', opts.image);
  if (opts.startTimeoutMs) args.push('--start-timeout', String(opts.startTimeoutMs));
  const proc = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  proc.stderr!.on('data', (b: Buffer) => {
    out += b.toString();
  });
  const url = `http://${LOOPBACK}:${port}`;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const s: Supervisor = {
    root,
    url,
    port,
    proc,
    output: () => out,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
    },
    kill: async () => {
      proc.kill('SIGKILL');
      await exited;
    },
  };
  if (!(await waitForVersion(url, undefined, 60_000))) {
    await s.stop();
    throw new Error(`the supervisor's daemon did not answer:\n${out}`);
  }
  return s;
}

/** The app version the daemon at `url` reports (signed in as the admin), or undefined when it does not answer. */
export async function runningVersion(url: string): Promise<string | undefined> {
  try {
    const c = await adminClient(url);
    const r = await c.get('/config/get_update_status');
    return r.status === 200 ? (r.body.version as string) : undefined;
  } catch {
    return undefined;
  }
}

/** Waits until the daemon answers (with `version` when given); false after `ms`. */
export async function waitForVersion(url: string, version: string | undefined, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const v = await runningVersion(url);
    if (v !== undefined && (version === undefined || v === version)) return true;
    await new Promise((r) => setTimeout(r, 300));
  }
  return false;
}

/** A client signed in as the admin (set up on first use). */
export async function adminClient(url: string): Promise<Client> {
  const c = new Client(url);
  const r = await c.get('/rest/api/v1/authentication');
  if (r.body?.error?.code === 'setup_required') await c.post('/rest/api/v1/authentication/setup', ADMIN);
  return c.login(ADMIN);
}

/** POSTs a package with its .md5 content; the answer's status and body. */
export async function uploadImage(
  c: Client,
  zip: Uint8Array,
  md5: string | undefined,
  names = { name: 'fw.zip', md5_name: 'fw.md5' },
): Promise<{ status: number; body: any }> {
  const q = new URLSearchParams({ name: names.name, ...(md5 === undefined ? {} : { md5_name: names.md5_name, md5 }) });
  const res = await fetch(`${c.base}/config/firmware?${q}`, {
    method: 'POST',
    headers: { cookie: c.cookie, 'x-csrf-token': c.csrf, 'content-type': 'application/octet-stream' },
    body: Buffer.from(zip),
  });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

export const readImage = async (r: ImageResult) => ({ zip: await readFile(r.zipFile), md5: await readFile(r.md5File, 'utf8') });
