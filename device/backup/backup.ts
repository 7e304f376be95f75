// Making a backup (spec §2 /backuprestore, §5 backup password 8-32 characters and extension
// .i4csettings; security.md BK-1): the unit's sections and files, sealed with or without password.
import type { ConfigStore } from '../config/store.ts';
import { BACKUP_EXTENSION } from '../model/backup.ts';
import { APP_VERSION } from '../version.ts';
import { collectContent, encodeContent } from './content.ts';
import { FORMAT_VERSION, PRODUCT, sealBackup } from './format.ts';

export interface BackupDeps {
  dataDir: string;
  store: ConfigStore;
  hostname: string;
  now: number;
}

/** `<hostname>_<yyyy-mm-dd>.i4csettings`, the host name reduced to characters safe in a header. */
export function backupFileName(hostname: string, now: number): string {
  const host = hostname.replace(/[^A-Za-z0-9-]/g, '').slice(0, 63) || 'unit';
  return `${host}_${new Date(now).toISOString().slice(0, 10)}${BACKUP_EXTENSION}`;
}

export async function createBackup(deps: BackupDeps, password?: string): Promise<{ name: string; bytes: Buffer; files: number }> {
  const defs = deps.store.keys().map((k) => deps.store.def(k)!);
  const content = await collectContent(deps.dataDir, defs, (k) => deps.store.get(k), password !== undefined);
  const header = { product: PRODUCT, format: FORMAT_VERSION, app: APP_VERSION, created: new Date(deps.now).toISOString(), hostname: deps.hostname };
  const bytes = await sealBackup(header, encodeContent(content), password);
  return { name: backupFileName(deps.hostname, deps.now), bytes, files: content.files.length };
}
