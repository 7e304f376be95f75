// Test support: a command-line entry (npm script, tsx entry, bundled daemon) run as a child process
// in a process group of its own, its output collected, lines waited for, and the whole group
// checked for processes left behind after a stop.
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { connect } from 'node:net';

export interface EntryProcess {
  proc: ChildProcess;
  output(): string;
  /** resolves with the first match of `re` in the output; rejects after `ms` with the output so far */
  waitFor(re: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /**
   * exit code and signal, once the process ended and its output is all read: 'close', not 'exit',
   * which can come before the last lines written into the pipe reach us
   */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** true while any process of the group (the entry and what it started) still exists */
  groupAlive(): boolean;
  /** SIGKILL to the whole group: the cleanup of a test that failed half-way */
  killGroup(): void;
}

export function startEntry(command: string, args: readonly string[], opts: SpawnOptions = {}): EntryProcess {
  const proc = spawn(command, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const waiters = new Set<() => void>();
  const add = (b: Buffer) => {
    out += b.toString();
    for (const w of waiters) w();
  };
  proc.stdout!.on('data', add);
  proc.stderr!.on('data', add);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    proc.once('close', (code: number | null, signal: NodeJS.Signals | null) => r({ code, signal })),
  );
  const pgid = proc.pid!;
  const groupAlive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    proc,
    output: () => out,
    waitFor: (re, ms = 60_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(re);
          if (!m) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${re} within ${ms} ms; output:\n${out}`));
        }, ms);
        waiters.add(check);
        check();
      }),
    exited,
    groupAlive,
    killGroup: () => {
      if (groupAlive()) process.kill(-pgid, 'SIGKILL');
    },
  };
}

/** Waits until `check` is true, polling every 100 ms; false after `ms`. */
export async function eventually(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** True when something accepts TCP connections on host:port. */
export const listening = (port: number, host = '127.0.0.1'): Promise<boolean> =>
  new Promise((r) => {
    const s = connect(port, host, () => {
      s.destroy();
      r(true);
    });
    s.once('error', () => r(false));
  });
