// The audit log (security.md AUD-1): append-only JSON lines of who did what and when; bounded in
// size by rotation (audit.log → audit.log.1 … audit.log.3). No API edits it.
import { mkdir, open, rename, stat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../hw/types.ts';

export interface AuditEvent {
  action: string; // login_ok, login_failed, lockout, logout, setup, config_save, …
  user?: string;
  source?: string; // client address
  detail?: Record<string, unknown>;
}

export interface AuditLog {
  write(event: AuditEvent): Promise<void>;
  read(): Promise<string>;
  /** the whole log: the rotated files, oldest first, then the current one */
  readAll(): Promise<string>;
}

export function createAuditLog(opts: { dir: string; clock: Clock; maxBytes?: number; keep?: number }): AuditLog {
  const file = join(opts.dir, 'audit.log');
  const maxBytes = opts.maxBytes ?? 512 * 1024;
  const keep = opts.keep ?? 3;
  let queue: Promise<void> = Promise.resolve();

  async function rotateIfNeeded(): Promise<void> {
    const size = await stat(file).then((s) => s.size, () => 0);
    if (size < maxBytes) return;
    for (let i = keep - 1; i >= 1; i--) await rename(`${file}.${i}`, `${file}.${i + 1}`).catch(() => undefined);
    await rename(file, `${file}.1`);
  }

  async function append(event: AuditEvent): Promise<void> {
    await mkdir(opts.dir, { recursive: true });
    await rotateIfNeeded();
    const fh = await open(file, 'a', 0o600);
    try {
      await fh.write(JSON.stringify({ time: new Date(opts.clock.now()).toISOString(), ...event }) + '\n');
      await fh.datasync();
    } finally {
      await fh.close();
    }
  }

  return {
    write(event) {
      const run = queue.then(() => append(event));
      queue = run.catch(() => undefined);
      return run;
    },
    read: () => readFile(file, 'utf8').catch(() => ''),
    async readAll() {
      await queue; // a write under way lands first
      const names = [...Array.from({ length: keep }, (_, i) => `${file}.${keep - i}`), file];
      return (await Promise.all(names.map((n) => readFile(n, 'utf8').catch(() => '')))).join('');
    },
  };
}
