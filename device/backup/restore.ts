// Restoring a backup (spec §2 /backuprestore, §5, §8; security.md BK-1): everything is checked
// first (format, product, version, integrity, then every section with the schemas and cross-rules
// of a save), then all sections, files and certificates are applied at once or not at all.
//
// How it is applied, under `<dataDir>/.restore`:
//  1. stage: the new file folders (`new/<folder>`) and the checked sections (`sections/<key>.json`)
//     are written and synced;
//  2. commit point: `commit.json` is written atomically;
//  3. each file folder is swapped (current → `old/<folder>`, `new/<folder>` → current), so that the
//     engines that restart on step 4 already find the new certificates;
//  4. the sections are saved as one store transaction (the engines follow the store);
//  5. `commit.json` and the staging folder are removed.
// After a power loss or a kill, `recoverRestore` (run before the store opens) rolls a committed
// restore forward (sections written from the staging, remaining folders swapped) and throws an
// uncommitted one away: the unit comes back with the old or the new settings, never a mix. A save
// that the store refuses at step 4 (a system port taken in between) swaps the folders back.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { syncDir, writeDurable, writeFileAtomic } from '../../hw/atomic-file.ts';
import type { ApiIssue } from '../api/errors.ts';
import type { ConfigStore } from '../config/store.ts';
import { commitFiles, recoverCommit } from '../config/transaction.ts';
import { issue } from '../model/issues.ts';
import { type CrossOptions, crossSectionIssues } from '../model/rules.ts';
import { restoreSecrets } from '../model/secrets.ts';
import { validateSection } from '../model/section.ts';
import type { Logger } from '../system/log.ts';
import { type BackupContent, decodeJson, FILE_FOLDERS, toContent } from './content.ts';
import { type BackupHeader, BackupRefused, openBackup } from './format.ts';
import { migrate } from './migrate.ts';

export const STAGING = '.restore';
const COMMIT = 'commit.json';
const serialize = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`; // as the store writes

export class InvalidSettings extends BackupRefused {
  constructor(readonly issues: ApiIssue[]) {
    super('invalid_settings', 'The settings of the backup are not valid');
  }
}

export interface RestoreDeps {
  dataDir: string;
  store: ConfigStore;
  log: Logger;
  crossOptions: () => Promise<CrossOptions>;
}

export interface RestoreResult {
  header: BackupHeader;
  sections: string[];
  files: number;
}

/** Checks a file completely and returns its sections as a save would store them. */
export async function checkBackup(
  deps: RestoreDeps,
  file: Buffer,
  password?: string,
): Promise<{ header: BackupHeader; content: BackupContent; values: Record<string, unknown> }> {
  const { header, content: raw } = await openBackup(file, password);
  const content = toContent(migrate(header.format, decodeJson(raw)));
  const { store } = deps;
  const issues: ApiIssue[] = [];
  for (const key of Object.keys(content.sections)) if (!store.has(key)) issues.push({ section: key, ...issue('', 'unknown_key') });
  const values: Record<string, unknown> = {};
  for (const key of store.keys()) {
    const def = store.def(key)!;
    if (!(key in content.sections)) {
      issues.push({ section: key, ...issue('', 'required') });
      continue;
    }
    let input = content.sections[key];
    // an unprotected backup carries no secrets: the unit keeps its own where the backup has none
    if (header.protection === 'sha256' && typeof input === 'object' && input !== null && !Array.isArray(input)) {
      input = restoreSecrets(def, input, store.get(key));
    }
    const checked = validateSection(def, input);
    if (checked.ok) values[key] = checked.value;
    else issues.push(...checked.issues.map((i) => ({ section: key, ...i })));
  }
  if (!issues.length) {
    const cross = crossSectionIssues(
      store.keys().map((k) => store.def(k)!),
      values,
      await deps.crossOptions(),
    );
    for (const [section, list] of Object.entries(cross)) issues.push(...list.map((i) => ({ section, ...i })));
  }
  if (issues.length) throw new InvalidSettings(issues);
  return { header, content, values };
}

async function stage(root: string, content: BackupContent, values: Record<string, unknown>): Promise<void> {
  await rm(root, { recursive: true, force: true });
  const dirs = new Set<string>([join(root, 'sections'), join(root, 'old'), ...FILE_FOLDERS.map((f) => join(root, 'new', f))]);
  for (const f of content.files) dirs.add(dirname(join(root, 'new', f.folder, f.path)));
  for (const d of dirs) await mkdir(d, { recursive: true });
  for (const f of content.files) await writeDurable(join(root, 'new', f.folder, f.path), f.data);
  for (const [key, value] of Object.entries(values)) await writeDurable(join(root, 'sections', `${key}.json`), serialize(value));
  for (const d of [...dirs].sort((a, b) => b.length - a.length)) await syncDir(d);
  await syncDir(join(root, 'new'));
  await syncDir(root);
}

/** Puts `new/<folder>` in place of `<folder>`; idempotent, so recovery can repeat it. */
async function swapIn(dataDir: string, root: string, folder: string): Promise<void> {
  const next = join(root, 'new', folder);
  if (!existsSync(next)) return; // already swapped
  const current = join(dataDir, folder);
  const old = join(root, 'old', folder);
  if (existsSync(current)) {
    if (existsSync(old))
      await rm(current, { recursive: true, force: true }); // made after the first move
    else await rename(current, old);
  }
  await rename(next, current);
  await syncDir(dataDir);
  await syncDir(join(root, 'new'));
}

/** Undoes swapIn before the commit is given up (the store refused the sections). */
async function swapBack(dataDir: string, root: string, folder: string): Promise<void> {
  const current = join(dataDir, folder);
  const old = join(root, 'old', folder);
  await rm(current, { recursive: true, force: true });
  if (existsSync(old)) await rename(old, current);
  await syncDir(dataDir);
}

const queues = new Map<string, Promise<unknown>>();

/** Checks and applies a backup; one restore at a time per unit. */
export function restoreBackup(deps: RestoreDeps, file: Buffer, password?: string): Promise<RestoreResult> {
  const run = (queues.get(deps.dataDir) ?? Promise.resolve()).then(() => restoreNow(deps, file, password));
  queues.set(
    deps.dataDir,
    run.catch(() => undefined),
  );
  return run;
}

async function restoreNow(deps: RestoreDeps, file: Buffer, password?: string): Promise<RestoreResult> {
  const { header, content, values } = await checkBackup(deps, file, password);
  const root = join(deps.dataDir, STAGING);
  try {
    await stage(root, content, values);
  } catch (e) {
    await rm(root, { recursive: true, force: true });
    throw e;
  }
  await writeFileAtomic(join(root, COMMIT), JSON.stringify({ folders: FILE_FOLDERS, sections: Object.keys(values) }));
  const swapped: string[] = [];
  for (const folder of FILE_FOLDERS) {
    await swapIn(deps.dataDir, root, folder);
    swapped.push(folder);
  }
  const saved = await deps.store.save(values);
  if (!saved.ok) {
    for (const folder of swapped) await swapBack(deps.dataDir, root, folder);
    await rm(join(root, COMMIT), { force: true });
    await syncDir(root);
    await rm(root, { recursive: true, force: true });
    throw new InvalidSettings(Object.entries(saved.issues).flatMap(([section, list]) => list.map((i) => ({ section, ...i }))));
  }
  await rm(join(root, COMMIT), { force: true });
  await syncDir(root);
  await rm(root, { recursive: true, force: true });
  return { header, sections: saved.keys, files: content.files.length };
}

/** At start, before the store opens: finishes a committed restore, drops an uncommitted one. */
export async function recoverRestore(dataDir: string, log: Logger): Promise<void> {
  const root = join(dataDir, STAGING);
  if (!existsSync(root)) return;
  if (!existsSync(join(root, COMMIT))) {
    log.warn('an interrupted restore was not committed: the unit keeps its settings');
    await rm(root, { recursive: true, force: true });
    return;
  }
  log.warn('completing an interrupted restore');
  const configDir = join(dataDir, 'config');
  await recoverCommit(configDir, log);
  const names = (await readdir(join(root, 'sections'))).filter((n) => /^[a-z0-9_]+\.json$/.test(n));
  const files = await Promise.all(names.map(async (n) => ({ file: join(configDir, n), data: await readFile(join(root, 'sections', n), 'utf8') })));
  if (files.length) await commitFiles(configDir, files);
  for (const folder of FILE_FOLDERS) await swapIn(dataDir, root, folder);
  await rm(join(root, COMMIT), { force: true });
  await syncDir(root);
  await rm(root, { recursive: true, force: true });
}
