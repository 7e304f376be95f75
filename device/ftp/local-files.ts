// Which local files an FTP send takes, and what becomes of them (spec §3 pew_ftpc local_dir and
// local_file, pew_script file_ext_replacement; §4 "after a successful FTP send, the local file is
// renamed and optionally deleted later"). docs/ftp.md describes the rules:
//
// - local_dir `<volume>[/sub/dir]` (volume internal, usb or temp) is a folder of that storage
//   volume; a path whose first part is no volume is on the internal volume; empty means the data
//   logger's folder (`log`) on the logger's storage volume. It is resolved with realpath and must
//   stay inside the volume (no link out).
// - local_file is a name prefix: every plain file whose name starts with it is sent (empty: all).
// - a file already renamed (its extension is the replacement) is never sent again.
// - a CSV file of the data logger is held back while the logger may still write to it: when it is
//   the newest file of a log file of pew_log and its period holds now, or that log file is logging
//   (its last records may still be cached until the first record of the next period). It goes with
//   the first send after that. Renaming it earlier would make the logger start the same name again.
//   A file whose name only looks like a log file's (a script's `audit_%Y%m%d.csv`) is no log file
//   of pew_log and is sent like any other.
import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { VOLUME_IDS, type Volume, type VolumeId } from '../../hw/types.ts';
import { csvFileName, parseCsvFileName } from '../logger/csv-names.ts';
import { DISABLED } from '../logger/triggers.ts';
import { LOG_FOLDER } from '../logger/types.ts';
import type { Ftpc } from '../model/sections/ftpc.ts';
import type { Log } from '../model/sections/log.ts';
import type { Script } from '../model/sections/script.ts';
import { type FolderFile, listFolder } from '../system/volume-files.ts';

/** A local problem: the folder is missing, not on a mounted volume, or leaves its volume. */
export class LocalFolderError extends Error {}

export interface LocalFolder {
  volume: VolumeId;
  /** the folder's real path */
  path: string;
  /** as shown to people: `<volume>/<sub dir>` */
  shown: string;
}

/** The volume and the path inside it that local_dir names (empty: the logger's folder). */
export function localDirOf(localDir: string, loggerStorage: number): { volume: VolumeId; sub: string } {
  const parts = localDir.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0) return { volume: VOLUME_IDS[loggerStorage] ?? 'internal', sub: LOG_FOLDER };
  const first = parts[0] as VolumeId;
  if ((VOLUME_IDS as readonly string[]).includes(first)) return { volume: first, sub: parts.slice(1).join('/') };
  return { volume: 'internal', sub: parts.join('/') };
}

/** The real folder of local_dir; throws LocalFolderError when it cannot be used. */
export async function resolveLocalFolder(f: Pick<Ftpc, 'local_dir'>, log: Pick<Log, 'storage'>, volumes: readonly Volume[]): Promise<LocalFolder> {
  const { volume, sub } = localDirOf(f.local_dir, log.storage);
  const shown = sub ? `${volume}/${sub}` : volume;
  const v = volumes.find((x) => x.id === volume);
  if (!v?.mounted) throw new LocalFolderError(`local directory ${shown}: the ${volume} volume is not mounted`);
  if (sub.split('/').includes('..')) throw new LocalFolderError(`local directory ${shown}: leaves the volume`);
  let root: string;
  let path: string;
  try {
    root = await realpath(v.path);
    path = await realpath(join(v.path, sub));
  } catch {
    throw new LocalFolderError(`local directory ${shown} does not exist`);
  }
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) throw new LocalFolderError(`local directory ${shown}: leaves the volume`);
  return { volume, path, shown };
}

/** the schema's default of file_ext_replacement, used while the field is empty (it may be with ftp_transmission off) */
const DEFAULT_EXT = 'bak';

/** file_ext_replacement without leading dots (`.bak` and `bak` are the same). */
export const replacementExt = (ext: string): string => ext.replace(/^\.+/, '') || DEFAULT_EXT;

/** The name a sent file gets: its extension replaced (`tank_20261120.csv` → `tank_20261120.bak`), or added when it has none. */
export function sentName(name: string, ext: string): string {
  const e = replacementExt(ext);
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name}.${e}`;
}

/** A file that a send renamed: it carries the replacement extension. */
export const isSentFile = (name: string, ext: string): boolean => name.endsWith(`.${replacementExt(ext)}`);

export interface HoldContext {
  now: number;
  log: Pick<Log, 'enable_log' | 'midnight_to_daybefore' | 'log_def'>;
}

/** The CSV files of `names` that the data logger may still write to (see the file's head). */
export function heldBack(names: readonly string[], ctx: HoldContext): Set<string> {
  const newest = new Map<string, { name: string; start: number }>();
  for (const name of names) {
    const info = parseCsvFileName(name);
    if (!info) continue;
    const seen = newest.get(info.logFileName);
    if (!seen || info.periodStart > seen.start) newest.set(info.logFileName, { name, start: info.periodStart });
  }
  const held = new Set<string>();
  for (const [logName, { name }] of newest) {
    if (!ctx.log.log_def.some((f) => f.name === logName)) continue; // no log file of the logger writes it
    const info = parseCsvFileName(name, logName)!;
    const current = csvFileName(logName, info.split, ctx.now, ctx.log.midnight_to_daybefore) === name;
    const logging = ctx.log.enable_log && ctx.log.log_def.some((f) => f.name === logName && f.trigger !== DISABLED);
    if (current || logging) held.add(name);
  }
  return held;
}

export interface Selection {
  /** the files to send now, by name */
  send: FolderFile[];
  /** files that match but are held back for the logger */
  held: string[];
  /** files renamed by an earlier send (deleted when store_send is off) */
  sent: FolderFile[];
}

/** The files of the folder a send takes now, and the ones an earlier send renamed. */
export async function selectFiles(folder: string, f: Pick<Ftpc, 'local_file'>, s: Pick<Script, 'file_ext_replacement'>, hold: HoldContext): Promise<Selection> {
  const all = await listFolder(folder);
  const matching = all.filter((x) => x.name.startsWith(f.local_file));
  const sent = matching.filter((x) => isSentFile(x.name, s.file_ext_replacement));
  const candidates = matching.filter((x) => !isSentFile(x.name, s.file_ext_replacement));
  const held = heldBack(
    candidates.map((x) => x.name),
    hold,
  );
  return { send: candidates.filter((x) => !held.has(x.name)), held: [...held].sort(), sent };
}
