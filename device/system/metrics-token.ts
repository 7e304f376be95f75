// The scrape token of `GET /metrics` (docs/monitoring.md): only a keyed hash of it is kept, in
// `<data>/metrics-token.json`, written crash-safely (hw/atomic-file.ts). The token is shown once,
// when the administrator generates it; no route returns it afterwards. A scrape's token is checked
// by comparing hashes of equal length in constant time.
//
// SHA-256 (keyed with a salt of the file), not scrypt as for passwords: Prometheus sends the token
// with every scrape, every few seconds, and a generated token holds 256 random bits; one typed by
// hand has at least 16 visible characters (device/model/metrics-token.ts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDir, writeFileAtomic } from '../../hw/atomic-file.ts';
import type { MetricsTokenStatus } from '../model/metrics-token.ts';

export const METRICS_TOKEN_FILE = 'metrics-token.json';

interface Stored {
  version: 1;
  /** base64 */
  salt: string;
  /** HMAC-SHA256 of the token keyed with the salt, base64 */
  hash: string;
  /** ISO time the token was set */
  since: string;
}

const digest = (salt: Buffer, token: string) => createHmac('sha256', salt).update(token, 'utf8').digest();

function load(file: string): Stored | undefined {
  try {
    const d = JSON.parse(readFileSync(file, 'utf8')) as Partial<Stored>;
    if (d.version === 1 && typeof d.salt === 'string' && typeof d.hash === 'string' && typeof d.since === 'string') return d as Stored;
  } catch {
    /* none set, or a file that cannot be read: no token, so /metrics stays off */
  }
  return undefined;
}

/** A token as `generate` makes it: 32 random bytes, base64url (43 characters). */
export const newToken = (): string => randomBytes(32).toString('base64url');

export class MetricsToken {
  private stored: Stored | undefined;
  private salt: Buffer | undefined;
  private hash: Buffer | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly file: string) {
    this.take(load(file));
  }

  private take(s: Stored | undefined): void {
    this.stored = s;
    this.salt = s ? Buffer.from(s.salt, 'base64') : undefined;
    this.hash = s ? Buffer.from(s.hash, 'base64') : undefined;
  }

  status(): MetricsTokenStatus {
    return this.stored ? { set: true, since: this.stored.since } : { set: false };
  }

  isSet(): boolean {
    return this.stored !== undefined;
  }

  /** Whether `sent` is the token; false while none is set. */
  matches(sent: string): boolean {
    if (!this.salt || !this.hash) return false;
    return timingSafeEqual(digest(this.salt, sent), this.hash);
  }

  /** Changes run one after the other. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Keeps the hash of `token` in place of any before it. */
  set(token: string, now: Date): Promise<MetricsTokenStatus> {
    return this.serial(async () => {
      const salt = randomBytes(16);
      const next: Stored = { version: 1, salt: salt.toString('base64'), hash: digest(salt, token).toString('base64'), since: now.toISOString() };
      await writeFileAtomic(this.file, `${JSON.stringify(next)}\n`);
      this.take(next);
      return this.status();
    });
  }

  /** Removes the token (`/metrics` answers 404 again); whether one was set. */
  clear(): Promise<boolean> {
    return this.serial(async () => {
      const was = this.isSet();
      await rm(this.file, { force: true });
      await syncDir(dirname(this.file));
      this.take(undefined);
      return was;
    });
  }
}
