// The kill -9 loop of security.md CFG-1: a child saves configuration generations in a loop
// (test/fixtures/save-loop.ts), is killed with SIGKILL at a random moment, and the store is
// reopened in-process and checked (invariants in test/support/crash-check.ts).
//
// The child is bundled once with esbuild and run with plain `node`: a start then costs ~50 ms
// instead of tsx's few hundred, which is what makes 1000 iterations affordable.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundleChild, seededRandom } from './child-bundle.ts';
import { checkStore, seedStore } from './crash-check.ts';

export interface CrashLoopOptions {
  iterations: number;
  /** data folder of the child (its store is `<dir>/config`); seeded with generation 0 if empty */
  dir: string;
  /** longest wait after the first acknowledged save before the kill (ms) */
  maxDelayMs?: number;
  /** seed of the kill delays, to replay a failing run */
  seed?: number;
  /** run the child's deliberately unsafe writer (proves the checks can fail) */
  unsafe?: boolean;
}

export interface CrashLoopResult {
  iterations: number;
  /** kills that left a save half-done on disk (temp files or a journal before the restart) */
  killsDuringWrite: number;
  /** restarts on which the store completed an interrupted save-all */
  recoveries: number;
  /** restarts that found a generation committed but never acknowledged to the child */
  unacknowledged: number;
  /** the generation on disk after the last iteration */
  generation: number;
  /** the first iteration's violations; the loop stops there, as later states build on a broken one */
  violations: string[];
  seed: number;
  ms: number;
}

let bundled: Promise<string> | undefined;
let bundleDir: string | undefined;

/** Removes the built child; a later run builds it again. */
export function removeSaveLoopBundle(): void {
  if (bundleDir) rmSync(bundleDir, { recursive: true, force: true });
  bundleDir = bundled = undefined;
}

/**
 * The child as one .mjs file, built once per process into a temp folder. Removed at exit, or by
 * removeSaveLoopBundle() where the process is not ended normally (vitest workers).
 */
export function saveLoopBundle(): Promise<string> {
  bundled ??= (async () => {
    const { file, dir } = await bundleChild(new URL('../fixtures/save-loop.ts', import.meta.url), 'save-loop.mjs');
    bundleDir = dir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return file;
  })();
  return bundled;
}

interface Killed {
  firstSaved: number;
  lastSaved: number;
}

/** One child: started, killed some time after its first acknowledged save, fully drained. */
async function runOnce(bundle: string, dir: string, delayMs: number, unsafe: boolean): Promise<Killed> {
  const child = spawn(process.execPath, [bundle, dir, ...(unsafe ? ['--unsafe'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  let firstSaved = -1;
  let lastSaved = -1;
  let stderr = '';
  let pending = '';
  let started!: () => void;
  const firstSave = new Promise<void>((resolve) => (started = resolve));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    const lines = (pending + s).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      const m = /^saved (\d+)$/.exec(line);
      if (!m) continue;
      lastSaved = Number(m[1]);
      if (firstSaved < 0) {
        firstSaved = lastSaved;
        started();
      }
    }
  });
  // a child that never saves is a harness failure, not a crash-safety result
  const outcome = await Promise.race([
    firstSave.then(() => 'saving' as const),
    closed.then(() => 'exited' as const),
    sleep(10_000, undefined, { ref: false }).then(() => 'stuck' as const),
  ]);
  if (outcome !== 'saving') {
    child.kill('SIGKILL');
    await closed;
    throw new Error(`save-loop child ${outcome} before its first save: ${stderr.trim() || '(no output)'}`);
  }
  await sleep(delayMs);
  child.kill('SIGKILL');
  const [code, signal] = await closed; // 'close' comes after stdout ended: every line is counted
  if (signal !== 'SIGKILL') throw new Error(`save-loop child ended by itself (code ${code}): ${stderr.trim()}`);
  return { firstSaved, lastSaved };
}

export async function runCrashLoop(opts: CrashLoopOptions): Promise<CrashLoopResult> {
  const t0 = performance.now();
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 32);
  const next = seededRandom(seed);
  const maxDelay = opts.maxDelayMs ?? 40;
  const configDir = join(opts.dir, 'config');
  const bundle = await saveLoopBundle();
  await mkdir(configDir, { recursive: true });

  let state = await checkStore(configDir);
  if (state.problems.length) {
    // a new folder has no section files (logged as missing): write generation 0 first
    await seedStore(configDir);
    state = await checkStore(configDir);
    if (state.problems.length) throw new Error(`seeded store does not check: ${state.problems.join('; ')}`);
  }

  const result: CrashLoopResult = {
    iterations: 0,
    killsDuringWrite: 0,
    recoveries: 0,
    unacknowledged: 0,
    generation: state.generation,
    violations: [],
    seed,
    ms: 0,
  };
  for (let i = 1; i <= opts.iterations; i++) {
    const before = state.generation;
    const { firstSaved, lastSaved } = await runOnce(bundle, opts.dir, next() * maxDelay, opts.unsafe ?? false);
    state = await checkStore(configDir);
    result.iterations = i;
    result.generation = state.generation;
    if (state.inFlight) result.killsDuringWrite++;
    result.recoveries += state.recoveries;
    if (state.generation === lastSaved + 1) result.unacknowledged++;

    const problems = [...state.problems];
    if (firstSaved !== before + 1) problems.push(`child resumed at ${firstSaved}, expected ${before + 1}`);
    if (state.generation < lastSaved) problems.push(`lost an acknowledged save: loaded ${state.generation}, child had saved ${lastSaved}`);
    if (state.generation > lastSaved + 1) problems.push(`loaded ${state.generation}, beyond the one save in flight after ${lastSaved}`);
    if (problems.length) {
      result.violations = problems.map((p) => `iteration ${i} (seed ${seed}): ${p}`);
      break;
    }
  }
  result.ms = performance.now() - t0;
  return result;
}
