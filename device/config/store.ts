// The configuration store: one JSON file per section in `<data>/config`, loaded leniently (missing
// fields from defaults, unknown ones dropped, a corrupt file → defaults and a logged error) and
// saved strictly and atomically; a save of several sections is one all-or-nothing transaction.

import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempName, writeFileAtomic } from '../../hw/atomic-file.ts';
import { issue } from '../model/issues.ts';
import { type CrossOptions, crossSectionIssues, type IssuesBySection } from '../model/rules.ts';
import { defaultsOf, loadSection, maskSection, type SectionDef, staleMaskIssues, unmaskSection, validateSection } from '../model/section.ts';
import type { Logger } from '../system/log.ts';
import { commitFiles, recoverCommit } from './transaction.ts';

export type SaveResult = { ok: true; keys: string[] } | { ok: false; issues: IssuesBySection };

export interface StoreOptions {
  dir: string;
  defs: readonly SectionDef[];
  log: Logger;
  /** facts of the running unit the cross-section rules need (system ports) */
  crossOptions?: () => Promise<CrossOptions>;
}

const serialize = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export class ConfigStore {
  private readonly values = new Map<string, unknown>();
  private readonly byKey: Map<string, SectionDef>;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners: ((keys: string[]) => void)[] = [];
  /** the masked JSON of each section as GET answers it, made once per saved version */
  private readonly shown = new Map<string, string>();
  private allShown: string | undefined;
  private allView: Readonly<Record<string, unknown>> | undefined;

  private constructor(private readonly opts: StoreOptions) {
    this.byKey = new Map(opts.defs.map((d) => [d.key, d]));
  }

  static async open(opts: StoreOptions): Promise<ConfigStore> {
    const store = new ConfigStore(opts);
    await store.load();
    return store;
  }

  private fileOf(key: string): string {
    return join(this.opts.dir, `${key}.json`);
  }

  private async load(): Promise<void> {
    const { dir, log } = this.opts;
    const existed = existsSync(dir);
    await recoverCommit(dir, log);
    if (existed) for (const name of await readdir(dir)) if (isTempName(name)) await rm(join(dir, name), { force: true });
    for (const def of this.opts.defs) {
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(this.fileOf(def.key), 'utf8'));
      } catch (e) {
        const missing = (e as NodeJS.ErrnoException).code === 'ENOENT';
        if (existed)
          log.error(missing ? 'configuration file missing, using defaults' : 'configuration file unreadable, using defaults', {
            section: def.key,
            reason: missing ? 'missing' : (e as Error).name,
          });
        this.values.set(def.key, defaultsOf(def));
        continue;
      }
      const { value, repaired } = loadSection(def, raw);
      if (repaired) log.warn('configuration file repaired: invalid or unknown fields replaced by defaults', { section: def.key });
      this.values.set(def.key, value);
    }
    // a fresh unit gets a file for every section, so that a missing file later is a real fault
    if (!existed)
      await commitFiles(
        dir,
        this.opts.defs.map((d) => ({ file: this.fileOf(d.key), data: serialize(this.values.get(d.key)) })),
      );
  }

  keys(): string[] {
    return [...this.byKey.keys()];
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  def(key: string): SectionDef | undefined {
    return this.byKey.get(key);
  }

  /** The stored value, secrets included: for engines, never for an API answer. */
  get<T = unknown>(key: string): T {
    return structuredClone(this.values.get(key)) as T;
  }

  /** The stored value as the console sees it: non-empty secrets replaced by the mask. */
  read(key: string): unknown {
    return maskSection(this.byKey.get(key)!, this.get(key));
  }

  /** `read(key)` as JSON text, cached until the section is saved again. */
  readJson(key: string): string {
    let text = this.shown.get(key);
    if (text === undefined) this.shown.set(key, (text = JSON.stringify(this.read(key))));
    return text;
  }

  /** Every section as the console sees it, one JSON object by key: built from `readJson`, cached until a save. */
  readAllJson(): string {
    this.allShown ??= `{${this.keys()
      .map((k) => `${JSON.stringify(k)}:${this.readJson(k)}`)
      .join(',')}}`;
    return this.allShown;
  }

  all(): Record<string, unknown> {
    return Object.fromEntries(this.keys().map((k) => [k, this.get(k)]));
  }

  /**
   * Every stored section, secrets included, to read and never change (frozen): one copy shared by
   * every reader until the next save, so that a route answered often (the security warnings of
   * GET /rest/api/v1) does not copy the whole configuration, 700 logger points with it, each time.
   */
  view(): Readonly<Record<string, unknown>> {
    this.allView ??= deepFreeze(this.all());
    return this.allView;
  }

  onChange(fn: (keys: string[]) => void): void {
    this.listeners.push(fn);
  }

  /** Validates and saves one or several sections as one transaction. */
  save(changes: Record<string, unknown>): Promise<SaveResult> {
    const run = this.queue.then(() => this.saveNow(changes));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async saveNow(changes: Record<string, unknown>): Promise<SaveResult> {
    // keys come from the request: without a prototype, "__proto__" is a key like any other
    const issues: IssuesBySection = Object.create(null) as IssuesBySection;
    const next = new Map<string, unknown>();
    for (const [key, input] of Object.entries(changes)) {
      const def = this.byKey.get(key);
      if (!def) {
        issues[key] = [issue('', 'unknown_key')];
        continue;
      }
      const stale = staleMaskIssues(def, input, this.values.get(key));
      const checked = validateSection(def, unmaskSection(def, input, this.values.get(key)));
      if (checked.ok && !stale.length) next.set(key, checked.value);
      else issues[key] = [...stale, ...(checked.ok ? [] : checked.issues)];
    }
    if (Object.keys(issues).length) return { ok: false, issues };

    const merged = { ...Object.fromEntries(this.values), ...Object.fromEntries(next) };
    const cross = crossSectionIssues(this.opts.defs, merged, (await this.opts.crossOptions?.()) ?? {});
    for (const key of next.keys()) if (cross[key]?.length) issues[key] = cross[key]!;
    if (Object.keys(issues).length) return { ok: false, issues };

    const files = [...next].map(([key, value]) => ({ file: this.fileOf(key), data: serialize(value) }));
    if (files.length === 1) await writeFileAtomic(files[0]!.file, files[0]!.data);
    else if (files.length > 1) await commitFiles(this.opts.dir, files);
    for (const [key, value] of next) {
      this.values.set(key, value);
      this.shown.delete(key);
    }
    this.allShown = undefined;
    this.allView = undefined;
    const keys = [...next.keys()];
    for (const fn of this.listeners) fn(keys);
    return { ok: true, keys };
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
