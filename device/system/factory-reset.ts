// Factory reset (spec §2 /info, §4; security.md AUTH-2, AUD-1, LF-1): the unit goes back to the
// state of a fresh install. Every configuration section back to its defaults (through the store, so
// the engines stop what the defaults switch off), the services back to their defaults, every user
// removed with their register watch lists (the console shows the first-run setup again), every
// session ended, the scrape token of GET /metrics cleared (docs/monitoring.md), and the unit's files
// wiped: certificates, HTTP files, scripts, log configuration files, and the log files of the
// internal and temp storage. A USB stick is the operator's removable medium: its files stay.
//
// Kept on purpose: the audit log (AUD-1: append-only, no API edits it; the reset is recorded in it
// before the users go, and again with what was removed) and the login lockout table (AUTH-4: a
// reset must not be a way to clear a lock of a source address).
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SERVICE_DEFAULTS } from '../../hw/services.ts';
import type { Hw } from '../../hw/types.ts';
import type { ConfigStore } from '../config/store.ts';
import type { WatchLists } from '../diag/watch.ts';
import { FORMAT_FOLDER } from '../logger/engine.ts';
import { LOG_FOLDER } from '../logger/types.ts';
import type { FactoryResetResult } from '../model/factory-reset.ts';
import { defaultsOf } from '../model/section.ts';
import { serviceDiff } from '../model/service-states.ts';
import { HTTP_FOLDER } from '../rest/http-files.ts';
import type { AuditLog } from './audit.ts';
import { CERT_FOLDER } from './cert-files.ts';
import type { Logger } from './log.ts';
import type { MetricsToken } from './metrics-token.ts';
import { SCRIPT_FOLDER } from './script-files.ts';
import type { Sessions } from './sessions.ts';
import type { Users } from './users.ts';

export interface FactoryResetDeps {
  hw: Hw;
  dataDir: string;
  store: ConfigStore;
  users: Users;
  watch: WatchLists;
  sessions: Sessions;
  metricsToken: MetricsToken;
  audit: AuditLog;
  log: Logger;
  /** resolves when the engines that follow the store have applied its last save */
  settled: () => Promise<void>;
}

/** the storage volumes whose log folder a reset empties */
const WIPED_VOLUMES = new Set(['internal', 'temp']);

/** Counts the files below a folder (recursively), then removes it. */
async function wipeFolder(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  await rm(dir, { recursive: true, force: true });
  return entries.filter((e) => e.isFile()).length;
}

export async function factoryReset(deps: FactoryResetDeps, by: { user: string; source: string }): Promise<FactoryResetResult> {
  const { hw, dataDir, store, users, sessions, audit, log } = deps;
  // recorded while the user who asked still exists (AUD-1)
  await audit.write({ action: 'factory_reset', user: by.user, source: by.source });
  log.warn('factory reset started', { user: by.user });

  const keys = store.keys();
  const saved = await store.save(Object.fromEntries(keys.map((k) => [k, defaultsOf(store.def(k)!)])));
  if (!saved.ok) throw new Error(`the defaults of ${Object.keys(saved.issues).join(', ')} were refused`);
  await deps.settled(); // the logger has stopped writing before its files go

  const changes = serviceDiff(await hw.services(), SERVICE_DEFAULTS);
  for (const [name, enabled] of changes) await hw.setService(name, enabled);

  const files = await Promise.all([CERT_FOLDER, HTTP_FOLDER, SCRIPT_FOLDER, FORMAT_FOLDER].map((f) => wipeFolder(join(dataDir, f))));
  const volumes = (await hw.volumes()).filter((vol) => vol.mounted && WIPED_VOLUMES.has(vol.id));
  const logFiles = (await Promise.all(volumes.map((vol) => wipeFolder(join(vol.path, LOG_FOLDER))))).reduce((a, b) => a + b, 0);

  const userCount = users.list().length;
  await users.removeAll();
  await deps.watch.clear();
  const open = sessions.list();
  for (const s of open) sessions.end(s.id);
  const metricsToken = (await deps.metricsToken.clear()) ? 1 : 0;

  const result: FactoryResetResult = {
    settings: keys.length,
    services: changes.length,
    users: userCount,
    certificates: files[0]!,
    httpFiles: files[1]!,
    scripts: files[2]!,
    logConfigs: files[3]!,
    logFiles,
    sessions: open.length,
    metricsToken,
  };
  await audit.write({ action: 'factory_reset_done', user: by.user, source: by.source, detail: result });
  log.warn('factory reset done: the unit waits for its first administrator', result);
  return result;
}
