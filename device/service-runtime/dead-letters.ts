// The dead-letter store of a queued service (docs/services.md "Dead letters"): a job that can never
// be delivered (its target is gone, or the peer refused it for good) is moved here so the queue
// goes on, and waits for the admin to download, retry or discard it. One folder per service on the
// unit's storage, one file per letter named by its number, written like every stored file (temp
// file, fsync, rename, fsync of the folder: hw/atomic-file.ts), so a power cut leaves a letter
// whole or not there. Bounded by count and bytes: when a new letter does not fit, the oldest go
// first and the dropped count (meta.json) grows. A letter larger than the whole byte bound is not
// kept (counted as dropped).
import { mkdir, readdir, readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName, syncDir, writeFileAtomic } from '../../hw/atomic-file.ts';
import type { ServiceErrorName } from '../model/blocks/convention.ts';
import { readStoreMeta } from './store-meta.ts';

export const DEAD_LETTER_COUNT = 10_000; // letters a service keeps by default
export const DEAD_LETTER_BYTES = 8 * 1024 * 1024; // bytes of letters a service keeps by default
const WRITE_CHUNK = 64; // letters written in parallel
const LETTER_RE = /^(\d{12})\.dead$/;
const META = 'meta.json';

/** Why a job is a dead letter: its target is gone (settings changed) or the peer refused it for good. */
export type DeadReason = Exclude<ServiceErrorName, 'none'> | 'target_gone';

export interface DeadLetter<J> {
  /** number of the letter: order of arrival, never reused within a folder */
  id: number;
  /** when it was moved here (unit clock ms) */
  at: number;
  /** the target the job was made for (job-targets.ts) */
  target: string;
  code: DeadReason;
  message: string;
  /** how often it was tried */
  tries: number;
  job: J;
}

/** why a job is moved here, and for which target it was made */
export interface DeadWhy {
  target: string;
  code: DeadReason;
  message: string;
  tries: number;
  at: number;
}

export interface DeadLetterOptions<J> {
  maxCount?: number;
  maxBytes?: number;
  /** checks a job read back from storage; a letter that fails is removed */
  accept?: (value: unknown) => value is J;
  onBad?: (name: string, reason: string) => void;
}

const fileOf = (id: number): string => `${String(id).padStart(12, '0')}.dead`;

const isLetter = (v: unknown): v is DeadLetter<unknown> => {
  const l = v as Partial<DeadLetter<unknown>> | null;
  return (
    typeof l === 'object' &&
    l !== null &&
    typeof l.id === 'number' &&
    typeof l.at === 'number' &&
    typeof l.target === 'string' &&
    typeof l.code === 'string' &&
    typeof l.message === 'string' &&
    typeof l.tries === 'number' &&
    'job' in l
  );
};

export class DeadLetters<J> {
  private readonly letters: { letter: DeadLetter<J>; bytes: number }[] = [];
  private nextId = 1;
  private droppedCount = 0;
  private totalBytes = 0;
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly dir: string,
    readonly maxCount: number,
    readonly maxBytes: number,
  ) {}

  /** Opens (or creates) the store in `dir` with the letters left there, oldest first. */
  static async open<J>(dir: string, opts: DeadLetterOptions<J> = {}): Promise<DeadLetters<J>> {
    const maxCount = opts.maxCount ?? DEAD_LETTER_COUNT;
    const maxBytes = opts.maxBytes ?? DEAD_LETTER_BYTES;
    for (const [name, n] of [
      ['count', maxCount],
      ['bytes', maxBytes],
    ] as const) {
      if (!Number.isInteger(n) || n < 1) throw new RangeError(`dead-letter ${name} bound ${n} is not a positive integer`);
    }
    await mkdir(dir, { recursive: true });
    const store = new DeadLetters<J>(dir, maxCount, maxBytes);
    const names = (await readdir(dir)).sort();
    for (const name of names.filter(isTempName)) await rm(join(dir, name), { force: true });
    for (const name of names.filter((n) => LETTER_RE.test(n))) {
      const id = Number(LETTER_RE.exec(name)![1]);
      store.nextId = Math.max(store.nextId, id + 1);
      try {
        const text = await readFile(join(dir, name), 'utf8');
        const letter: unknown = JSON.parse(text);
        if (!isLetter(letter) || letter.id !== id) throw new Error('not a dead letter');
        if (opts.accept && !opts.accept(letter.job)) throw new Error('not a job of this service');
        const bytes = Buffer.byteLength(text);
        store.letters.push({ letter: letter as DeadLetter<J>, bytes });
        store.totalBytes += bytes;
      } catch (e) {
        opts.onBad?.(name, e instanceof Error ? e.message : String(e));
        await unlink(join(dir, name)).catch(() => undefined);
      }
    }
    // nothing dropped yet when there is no meta file
    const meta = await readStoreMeta(join(dir, META), 'nextId');
    if (meta.dropped !== undefined) store.droppedCount = meta.dropped;
    if (meta.next !== undefined) store.nextId = Math.max(store.nextId, meta.next);
    return store;
  }

  get count(): number {
    return this.letters.length;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** letters not kept since the store was made (the bounds were hit) */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Every letter, oldest first. */
  list(): DeadLetter<J>[] {
    return this.letters.map((l) => l.letter);
  }

  /** Stores a job as a letter (durably before it resolves); the oldest letters go when the bounds are hit. */
  async add(job: J, why: DeadWhy): Promise<DeadLetter<J> | undefined> {
    return (await this.addMany([{ job, why }]))[0];
  }

  /**
   * Stores jobs as letters, in their order (durably before it resolves); the oldest letters go when
   * the bounds are hit. A job larger than the byte bound is not kept (undefined in its place).
   */
  addMany(items: readonly { job: J; why: DeadWhy }[]): Promise<(DeadLetter<J> | undefined)[]> {
    return this.serial(async () => {
      const made = items.map(({ job, why }) => {
        const letter: DeadLetter<J> = { id: this.nextId++, at: why.at, target: why.target, code: why.code, message: why.message, tries: why.tries, job };
        const text = JSON.stringify(letter);
        return { letter, text, bytes: Buffer.byteLength(text) };
      });
      const fits = made.filter((m) => m.bytes <= this.maxBytes);
      // what stays: the newest that fit the bounds, among the letters there and the new ones
      const all = [...this.letters.map((l) => ({ ...l, old: true })), ...fits.map((m) => ({ letter: m.letter, bytes: m.bytes, old: false }))];
      let first = 0;
      let count = all.length;
      let total = all.reduce((n, l) => n + l.bytes, 0);
      while (count > this.maxCount || total > this.maxBytes) {
        total -= all[first]!.bytes;
        count--;
        first++;
      }
      const goneOld = all.slice(0, first).filter((l) => l.old);
      const keptNew = new Set(
        all
          .slice(first)
          .filter((l) => !l.old)
          .map((l) => l.letter.id),
      );
      // the count first, then the drop: a cut between them counts one too many, never one too few
      const droppedNow = first + (made.length - fits.length);
      if (droppedNow > 0) await this.countDropped(droppedNow);
      await Promise.all(goneOld.map((l) => unlink(join(this.dir, fileOf(l.letter.id))).catch(() => undefined)));
      this.letters.splice(0, goneOld.length);
      this.totalBytes -= goneOld.reduce((n, l) => n + l.bytes, 0);
      const keep = made.filter((m) => keptNew.has(m.letter.id));
      for (let i = 0; i < keep.length; i += WRITE_CHUNK) {
        await Promise.all(keep.slice(i, i + WRITE_CHUNK).map((m) => writeFileAtomic(join(this.dir, fileOf(m.letter.id)), m.text)));
      }
      for (const m of keep) {
        this.letters.push({ letter: m.letter, bytes: m.bytes });
        this.totalBytes += m.bytes;
      }
      return made.map((m) => (keptNew.has(m.letter.id) ? m.letter : undefined));
    });
  }

  /** Takes letters out (all when `ids` is undefined): they are gone from storage when it resolves. */
  take(ids?: readonly number[]): Promise<DeadLetter<J>[]> {
    return this.serial(async () => {
      const wanted = ids ? new Set(ids) : undefined;
      const taken = this.letters.filter((l) => !wanted || wanted.has(l.letter.id));
      if (taken.length === 0) return [];
      const gone = new Set(taken.map((l) => l.letter.id));
      for (let i = this.letters.length - 1; i >= 0; i--) if (gone.has(this.letters[i]!.letter.id)) this.letters.splice(i, 1);
      this.totalBytes -= taken.reduce((n, l) => n + l.bytes, 0);
      // the next number is kept first: a letter made after a restart never takes a number a download showed
      await this.writeMeta();
      await Promise.all(taken.map((l) => unlink(join(this.dir, fileOf(l.letter.id))).catch(() => undefined)));
      await syncDir(this.dir).catch(() => undefined);
      return taken.map((l) => l.letter);
    });
  }

  /** Waits for the writes so far. */
  async close(): Promise<void> {
    await this.chain.catch(() => undefined);
  }

  private async countDropped(n: number): Promise<void> {
    this.droppedCount += n;
    await this.writeMeta();
  }

  private async writeMeta(): Promise<void> {
    await writeFileAtomic(join(this.dir, META), JSON.stringify({ dropped: this.droppedCount, nextId: this.nextId }));
  }

  private serial<R>(step: () => Promise<R>): Promise<R> {
    const next = this.chain.then(step, step);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
