// A node:fs/promises FileHandle (or a Dir of opendir) that is never closed is closed by the garbage
// collector, with the warnings "Closing file descriptor N on garbage collection" and DEP0137 — and
// that close path has aborted the whole process (node::fs::FileHandle::CloseReq::Resolve asserting
// in InternalCallbackScope::Close); on the unit that is a daemon crash. The guard makes such a leak
// fail the test file that made it (docs/development.md): it listens for those warnings, remembers
// where each handle of node:fs/promises open() and opendir() was opened, and at the end of the test
// file forces a garbage collection (the projects run with --expose-gc) and names the place of every
// handle that was collected without having been closed.
// the module object itself (its ESM namespace cannot be changed); syncBuiltinESMExports carries the
// change to every `import { open } from 'node:fs/promises'`

import type { EventEmitter } from 'node:events';
import fsp from 'node:fs/promises';
import { syncBuiltinESMExports } from 'node:module';

/** A warning node emits when the garbage collector closes a handle that the code left open. */
export function isGcCloseWarning(w: Error & { code?: string }): boolean {
  return w.code === 'DEP0137' || /Closing (file descriptor \d+|directory handle) on garbage collection/.test(w.message);
}

interface Opened {
  what: string;
  stack: string;
  closed: boolean;
}

/** The first frames of `stack` outside node's internals, the dependencies and this file, on one line. */
function ownFrames(stack: string | undefined): string {
  return (stack ?? '')
    .split('\n')
    .slice(1)
    .filter((l) => !/node:internal|node_modules|support\/handle-guard\.ts|new Promise \(<anonymous>\)/.test(l))
    .slice(0, 4)
    .map((l) => l.trim().replace(/^at /, ''))
    .join(' < ');
}

/** `lines` with repeats counted: "(3×) line". */
function counted(lines: string[]): string[] {
  const n = new Map<string, number>();
  for (const l of lines) n.set(l, (n.get(l) ?? 0) + 1);
  return [...n].map(([l, k]) => (k > 1 ? `(${k}×) ${l}` : l));
}

export interface HandleGuard {
  /** Forces a collection (when gc is exposed) and answers what leaked since the last call, emptied. */
  collect(): Promise<{ warnings: string[]; leaks: string[] }>;
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise<void>((r) => setImmediate(r));
};

/** where the process keeps its one guard: a worker that runs several test files without isolation
 * evaluates the setup file once per file, and a second install would wrap open() and opendir() again */
const INSTALLED = Symbol.for('communicator.handle-guard');

/**
 * Installs the guard in this process: open() and opendir() of node:fs/promises are tracked from now
 * on. Once per process: a later call answers the guard already installed.
 */
export function installHandleGuard(): HandleGuard {
  const holder = globalThis as { [INSTALLED]?: HandleGuard };
  holder[INSTALLED] ??= newHandleGuard();
  return holder[INSTALLED];
}

function newHandleGuard(): HandleGuard {
  const warnings: string[] = [];
  const leaks: string[] = [];
  const registry = new FinalizationRegistry<Opened>((o) => {
    if (!o.closed) leaks.push(`${o.what} opened at ${o.stack}`);
  });
  process.on('warning', (w) => {
    if (isGcCloseWarning(w)) warnings.push(w.message.replace(/descriptor \d+/, 'descriptor N'));
  });

  const open = fsp.open;
  const opendir = fsp.opendir;
  const tracked = (what: string): Opened => ({ what, stack: ownFrames(new Error().stack), closed: false });
  fsp.open = async (...args: Parameters<typeof open>) => {
    const o = tracked(`file handle of ${String(args[0])}`);
    const fh = await open(...args);
    // a FileHandle is an EventEmitter with 'close' (node's documentation), which its types leave out
    (fh as unknown as EventEmitter).once('close', () => {
      o.closed = true;
    });
    registry.register(fh, o);
    return fh;
  };
  fsp.opendir = async (...args: Parameters<typeof opendir>) => {
    const o = tracked(`directory ${String(args[0])}`);
    const dir = await opendir(...args);
    // closed by close() or closeSync(), or at the end (or break) of a for-await loop, whose own
    // close does not go through close()
    const closing =
      <A extends unknown[], R>(f: (...a: A) => R) =>
      (...a: A): R => {
        o.closed = true;
        return f(...a);
      };
    const entries = dir[Symbol.asyncIterator].bind(dir);
    const loop = async function* () {
      try {
        yield* entries();
      } finally {
        o.closed = true;
      }
    };
    Object.defineProperties(dir, {
      close: { value: closing(dir.close.bind(dir) as (...a: unknown[]) => unknown) },
      closeSync: { value: closing(dir.closeSync.bind(dir)) },
      entries: { value: loop },
      [Symbol.asyncIterator]: { value: loop },
    });
    registry.register(dir, o);
    return dir;
  };
  syncBuiltinESMExports();

  return {
    async collect() {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (gc) {
        // the warnings come in an immediate after the collection, the registry's callbacks in a task
        await turns(2);
        gc();
        await turns(5);
      }
      return { warnings: counted(warnings.splice(0)), leaks: counted(leaks.splice(0)) };
    },
  };
}
