// All-or-nothing replacement of several files in one folder (save-all, security.md CFG-1).
//
// 1. every new file is written durably under a temp name;
// 2. a journal naming each temp → target pair is written atomically: this is the commit point;
// 3. the temps are renamed over their targets, the folder is synced, the journal removed.
// On start, a journal is rolled forward (renames that did not happen yet are done) and temps
// without a journal are uncommitted leftovers, removed by the store.

import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { syncDir, tempNameFor, writeDurable, writeFileAtomic } from '../../hw/atomic-file.ts';
import type { Logger } from '../system/log.ts';

const JOURNAL = 'commit.journal';

interface Journal {
  pairs: [temp: string, target: string][]; // names inside the folder
}

export async function commitFiles(dir: string, files: { file: string; data: string }[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  const pairs: Journal['pairs'] = [];
  try {
    for (const f of files) {
      const tmp = tempNameFor(f.file);
      await writeDurable(tmp, f.data);
      pairs.push([basename(tmp), basename(f.file)]);
    }
    await syncDir(dir);
  } catch (e) {
    for (const [tmp] of pairs) await rm(join(dir, tmp), { force: true });
    throw e;
  }
  await writeFileAtomic(join(dir, JOURNAL), JSON.stringify({ pairs } satisfies Journal));
  await applyJournal(dir, pairs);
}

async function applyJournal(dir: string, pairs: Journal['pairs']): Promise<void> {
  for (const [tmp, target] of pairs) if (existsSync(join(dir, tmp))) await rename(join(dir, tmp), join(dir, target));
  await syncDir(dir);
  await rm(join(dir, JOURNAL), { force: true });
  await syncDir(dir);
}

/** Finishes a transaction that was committed but not fully applied before a crash. */
export async function recoverCommit(dir: string, log: Logger): Promise<void> {
  const file = join(dir, JOURNAL);
  let journal: Journal;
  try {
    journal = JSON.parse(await readFile(file, 'utf8')) as Journal;
  } catch {
    return; // no journal: nothing was committed half-way
  }
  const safe = Array.isArray(journal.pairs) && journal.pairs.every((p) => Array.isArray(p) && p.every((n) => typeof n === 'string' && n === basename(n)));
  if (!safe) {
    log.error('configuration journal unreadable, ignored');
    await rm(file, { force: true });
    return;
  }
  log.warn('completing an interrupted save of several sections', { files: journal.pairs.length });
  await applyJournal(dir, journal.pairs);
}
