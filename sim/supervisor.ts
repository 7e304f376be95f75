// `npm run supervisor -- --root DIR [--image FILE.zip] [--port N] [--host ADDR] [--plcs FILE]`: the
// simulated unit's supervisor (docs/firmware.md; security.md FW-1). A small parent process that
// runs the current release's daemon (forked with an IPC channel) and installs what the daemon asks
// for: stop it, switch `current` (previous = the old one), start the new one and wait for its
// answer — else switch back and start the old one. A journal (install.json) written before the
// switch makes a supervisor killed in the middle bring the old release back on its next start.
// The daemon never replaces itself. On first start the simulator's development signing key is
// made in the data folder and trusted; `--image` seeds an empty root with a first release, checked
// like any update.

import { type ChildProcess, fork } from 'node:child_process';
import { mkdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { InstallRequest } from '../device/firmware/engine.ts';
import {
  type InstallResult,
  type Journal,
  type Layout,
  layoutOf,
  pointTo,
  pruneReleases,
  readJson,
  readPointer,
  releaseManifest,
  unpackRelease,
  writeJson,
} from '../device/firmware/layout.ts';
import { ensureDevKey, loadTrustedKeys, publicPemOf, trustDirOf, trustPublicKey } from '../device/firmware/manifest.ts';
import { DAEMON_NODE_FLAGS } from '../device/firmware/node-flags.ts';
import { checkImage } from '../device/firmware/verify.ts';
import { nextRestartMs } from './restart-backoff.ts';

/** the simulated unit's BSP and HMI runtime (sim/main.ts reports the same) */
const SIM_BASE = { bsp: '1.3.2', hmi: '4.5.2' };
/** how long a new release may take to answer before the old one comes back */
export const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

/** the simulator's default data folder (device/options.ts DEFAULT_DATA_DIR), home of its development key */
const SIM_DATA_DIR = fileURLToPath(new URL('../data', import.meta.url));

interface Options {
  root: string;
  image?: string;
  port: number;
  host: string;
  plcs?: string;
  modules: string;
  startTimeoutMs: number;
}

const say = (m: string) => console.log(`supervisor: ${m}`);

function parse(): Options {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      root: { type: 'string' },
      image: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      plcs: { type: 'string' },
      modules: { type: 'string' },
      'start-timeout': { type: 'string' },
    },
    strict: true,
  });
  if (!values.root) throw new Error('--root DIR is required (the folder of releases and data)');
  const port = Number(values.port ?? process.env.PORT ?? 8080);
  // the supervisor checks the new release on this port: it must be fixed, not 0
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`--port must be 1-65535, got "${values.port}"`);
  return {
    root: resolve(values.root),
    image: values.image && resolve(values.image),
    port,
    host: values.host ?? '127.0.0.1',
    plcs: values.plcs && resolve(values.plcs),
    // the bundle keeps serialport (a native module) outside: releases find it through <root>/node_modules
    modules: resolve(values.modules ?? fileURLToPath(new URL('../node_modules', import.meta.url))),
    startTimeoutMs: Number(values['start-timeout'] ?? START_TIMEOUT_MS),
  };
}

/** Resolves when something answers HTTP on the port (any status), false after `ms`. */
async function answers(o: Options, ms: number, child?: ChildProcess): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) return false;
    try {
      const res = await fetch(`http://${o.host}:${o.port}/rest/api/v1/authentication`, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      if (res.status < 500) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** Waits until nothing listens on the port (a daemon of a killed supervisor is stopping). */
async function portFree(o: Options, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((r) => {
      const s = connect(o.port, o.host, () => {
        s.destroy();
        r(true);
      });
      s.once('error', () => r(false));
      // a connect that neither succeeds nor fails (a listener that does not take it) counts as in use:
      // the wait goes on to its end and says so, instead of hanging on this one attempt
      s.setTimeout(1000, () => {
        s.destroy();
        r(true);
      });
    });
    if (!open) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`port ${o.port} is still in use`);
}

async function seed(l: Layout, o: Options): Promise<void> {
  if (await readPointer(l.current)) return;
  if (!o.image) throw new Error(`${l.root} holds no release: give --image FILE.zip for the first one`);
  const md5 = await readFile(o.image.replace(/\.zip$/i, '.md5'), 'utf8');
  const checked = checkImage(await readFile(o.image), md5, { trusted: await loadTrustedKeys(trustDirOf(l.data)), running: SIM_BASE });
  const release = await unpackRelease(l, checked.manifest.version, checked.files);
  await pointTo(l, l.current, release);
  say(`seeded with ${checked.manifest.version}`);
}

/** A journal left by a killed supervisor: the switch was never confirmed, so the old release comes back. */
async function recover(l: Layout): Promise<void> {
  const j = await readJson<Journal>(l.journal);
  if (!j) return;
  await pointTo(l, l.current, j.from);
  const to = await releaseManifest(l, j.to).catch(() => undefined);
  const from = await releaseManifest(l, j.from);
  const result: InstallResult = { ok: false, version: to?.version ?? j.to, from: from.version, at: new Date().toISOString(), user: j.user, audited: false };
  await writeJson(l.result, result);
  await rm(l.journal, { force: true });
  say(`interrupted install of ${result.version} rolled back to ${from.version}`);
}

async function main(): Promise<void> {
  const o = parse();
  const l = layoutOf(o.root);
  await mkdir(l.releases, { recursive: true });
  // the simulator's development key (made on first use in its data folder; `npm run image` signs with it) is trusted here
  await trustPublicKey(trustDirOf(l.data), 'development.pem', publicPemOf(await ensureDevKey(SIM_DATA_DIR)));
  if (!(await stat(join(l.root, 'node_modules')).catch(() => undefined))) await symlink(o.modules, join(l.root, 'node_modules'));
  await seed(l, o);
  await recover(l);

  let child: ChildProcess | undefined;
  let restartMs = 0;
  let installing = false;
  let stopping = false;

  const start = async (): Promise<ChildProcess> => {
    await portFree(o, 15_000);
    const release = (await readPointer(l.current))!;
    const m = await releaseManifest(l, release);
    const args = ['--port', String(o.port), '--host', o.host, '--data', l.data, ...(o.plcs ? ['--plcs', o.plcs] : [])];
    const c = fork(join(l.releases, release, m.entry), args, {
      cwd: l.root,
      // the release runs on plain node as on the unit: its V8 flags, not the loader this supervisor
      // may run with (tsx)
      execArgv: [...DAEMON_NODE_FLAGS],
      env: { ...process.env, FIRMWARE_ROOT: l.root, FIRMWARE_TRUST_DIR: trustDirOf(l.data) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    c.on('message', (msg: InstallRequest) => {
      if (msg?.type === 'install' && !installing) void install(msg);
    });
    const startedAt = Date.now();
    c.on('exit', (code, sig) => {
      if (child !== c || installing || stopping) return;
      // a daemon that died on its own is started again, on the same release, after a back-off that
      // doubles while it keeps failing soon after its start (no tight restart loop)
      restartMs = nextRestartMs(restartMs, Date.now() - startedAt);
      say(`daemon exited (${sig ?? code}); starting it again in ${(restartMs / 1000).toFixed(0)} s`);
      child = undefined;
      setTimeout(
        () =>
          void start().then(
            (n) => {
              child = n;
            },
            (e: Error) => say(e.message),
          ),
        restartMs,
      );
    });
    say(`running ${m.version} (${release}) on http://${o.host}:${o.port}`);
    return c;
  };

  const stop = async (c: ChildProcess | undefined): Promise<void> => {
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGTERM');
    const t = setTimeout(() => c.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(t);
  };

  const install = async (req: InstallRequest): Promise<void> => {
    installing = true;
    const from = (await readPointer(l.current))!;
    try {
      const target = await releaseManifest(l, req.release);
      const old = await releaseManifest(l, from);
      await writeJson(l.journal, { from, to: req.release, user: req.user, at: new Date().toISOString() } satisfies Journal);
      say(`installing ${target.version} over ${old.version}`);
      await stop(child);
      await pointTo(l, l.current, req.release);
      child = await start();
      let ok = await answers(o, o.startTimeoutMs, child);
      if (!ok) {
        say(`${target.version} did not answer; going back to ${old.version}`);
        await stop(child);
        await pointTo(l, l.current, from);
        child = await start();
        ok = false;
      } else {
        await pointTo(l, l.previous, from);
      }
      await writeJson(l.result, {
        ok,
        version: target.version,
        from: old.version,
        at: new Date().toISOString(),
        user: req.user,
        audited: false,
      } satisfies InstallResult);
      await rm(l.journal, { force: true });
      await pruneReleases(l);
    } catch (e) {
      // whatever broke, the release that ran before runs again
      say(`install failed: ${(e as Error).message}; going back to ${from}`);
      await stop(child).catch(() => undefined);
      await pointTo(l, l.current, from);
      await rm(l.journal, { force: true });
      child = await start().catch((err: Error) => {
        say(err.message);
        return undefined;
      });
    } finally {
      installing = false;
    }
  };

  const shutdown = async (signal: NodeJS.Signals) => {
    stopping = true;
    await stop(child);
    say(`stopped (${signal})`);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  child = await start();
}

main().catch((e: Error) => {
  console.error(`supervisor failed: ${e.message}`);
  process.exit(1);
});
