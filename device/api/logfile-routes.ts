// The data logger's files (spec §2 /log "list/download log files", §7 get_files_intern,
// get_files_usb, get_files_temp, all_logfiles, delete_logfile, download/): the CSV files in the log
// folder of each volume and the CSV format files of <dataDir>/logcfg. Every name from a request is
// resolved inside its folder (security.md DL-1, device/system/volume-files.ts).
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from 'hono';
import * as v from 'valibot';
import { VOLUME_IDS, type Volume } from '../../hw/types.ts';
import { FORMAT_FOLDER } from '../logger/engine.ts';
import { LOG_FOLDER } from '../logger/types.ts';
import { msg } from '../model/issues.ts';
import type { LogStatus } from '../model/log-status.ts';
import { type FolderFile, fileInside, type InsideFile, isPlainName, listFolder, openInside, RefusedName } from '../system/volume-files.ts';
import { readBody } from './body.ts';
import { ApiError, type ApiIssue } from './errors.ts';
import { fileResponse } from './file-response.ts';
import { type RouteDef, route } from './route.ts';

/** spec §3 storage: internal 0, USB 1, temp 2 (the index into VOLUME_IDS) */
export type Storage = 0 | 1 | 2;
const STORAGES = [0, 1, 2] as const;

/** the volume's name in download paths: /download/log/<intern|usb|temp>/<name> */
const URL_VOLUMES = new Map<string, Storage>([
  ['intern', 0],
  ['usb', 1],
  ['temp', 2],
]);

/** One volume's log files as the listing routes answer. */
export interface VolumeFiles {
  storage: Storage;
  mounted: boolean;
  files: FolderFile[];
}

/** spec silent: at most 1000 names per delete keeps one request bounded (security.md VAL-1) */
export const DELETE_NAMES_MAX = 1000;

const deleteRequest = v.strictObject(
  {
    storage: v.picklist(STORAGES, msg('invalid_value', { allowed: [...STORAGES] })),
    names: v.pipe(
      v.array(v.string(msg('type', { expected: 'string' })), msg('type', { expected: 'array' })),
      v.minLength(1, msg('required')),
      v.maxLength(DELETE_NAMES_MAX, msg('too_many', { max: DELETE_NAMES_MAX })),
    ),
  },
  msg('type', { expected: 'object' }),
);

const volumeOf = (volumes: Volume[], storage: Storage): Volume | undefined => volumes.find((x) => x.id === VOLUME_IDS[storage]);

/** The log folder of a mounted volume; undefined when the volume is not there. */
const logFolder = (vol: Volume | undefined): string | undefined => (vol?.mounted ? join(vol.path, LOG_FOLDER) : undefined);

async function volumeFiles(vol: Volume | undefined, storage: Storage): Promise<VolumeFiles> {
  const dir = logFolder(vol);
  if (dir === undefined) return { storage, mounted: false, files: [] };
  return { storage, mounted: true, files: await listFolder(dir) };
}

const listRoute = (key: string, storage: Storage): RouteDef =>
  route({
    method: 'GET',
    path: `/config/${key}`,
    key,
    access: 'user',
    handler: async (c, ctx) => c.json((await volumeFiles(volumeOf(await ctx.hw.volumes(), storage), storage)) satisfies VolumeFiles),
  });

const badName = (issues?: ApiIssue[]) => new ApiError(400, 'invalid_file_name', 'Not a file name of this folder', issues);
const noFile = (issues?: ApiIssue[]) => new ApiError(404, 'file_not_found', 'No such file', issues);

/** The answer to a refused name: 400 for a name that is not one of the folder, 404 for a missing file. */
const refusal = (e: unknown): unknown => {
  if (!(e instanceof RefusedName)) return e;
  return e.reason === 'missing' ? noFile() : badName();
};

/** `attachment` with an ASCII fallback and the exact UTF-8 name (RFC 6266, RFC 5987). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/** Streams the file `name` of `dir`: exactly the bytes it had when opened (a log file may grow meanwhile). */
export async function download(c: Context, dir: string | undefined, name: string | undefined, type: string): Promise<Response> {
  if (name === undefined || !isPlainName(name)) throw badName();
  if (dir === undefined) throw noFile();
  let opened: Awaited<ReturnType<typeof openInside>>;
  try {
    opened = await openInside(dir, name);
  } catch (e) {
    throw refusal(e);
  }
  const { handle, size } = opened;
  const headers = { 'Content-Type': type, 'Content-Disposition': attachment(name), 'Content-Length': String(size) };
  return fileResponse(c, handle, size, headers);
}

/**
 * Removes the files `names` of the folder `dir` (undefined: a volume that is not there) and answers
 * the names removed. Every name is checked before anything is removed: one bad or missing name
 * leaves the folder as it was (400 invalid_file_name, 404 file_not_found, at `names.<i>`).
 */
export async function deleteNamed(dir: string | undefined, names: string[]): Promise<string[]> {
  const unique = [...new Set(names)];
  const invalid = names.flatMap((n, i): ApiIssue[] => (isPlainName(n) ? [] : [{ path: `names.${i}`, code: 'invalid_file_name' }]));
  if (invalid.length > 0) throw badName(invalid);
  if (dir === undefined) throw noFile(unique.map((n) => ({ path: `names.${names.indexOf(n)}`, code: 'file_not_found' })));
  const found: InsideFile[] = [];
  const outside: ApiIssue[] = [];
  const missing: ApiIssue[] = [];
  for (const n of unique) {
    try {
      found.push(await fileInside(dir, n));
    } catch (e) {
      if (!(e instanceof RefusedName)) throw e;
      (e.reason === 'missing' ? missing : outside).push({
        path: `names.${names.indexOf(n)}`,
        code: e.reason === 'missing' ? 'file_not_found' : 'invalid_file_name',
      });
    }
  }
  if (outside.length > 0) throw badName(outside);
  if (missing.length > 0) throw noFile(missing);
  const deleted: string[] = [];
  for (const f of found) {
    try {
      await unlink(f.entry); // the entry: a link is removed, never its target
      deleted.push(f.name);
    } catch (e) {
      // removed meanwhile (retention at 4:00, another console): it is gone as asked
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return deleted;
}

export const logfileRoutes: RouteDef[] = [
  listRoute('get_files_intern', 0),
  listRoute('get_files_usb', 1),
  listRoute('get_files_temp', 2),
  route({
    method: 'GET',
    path: '/config/all_logfiles',
    key: 'all_logfiles',
    access: 'user',
    handler: async (c, ctx) => {
      const volumes = await ctx.hw.volumes();
      return c.json({ volumes: await Promise.all(STORAGES.map((s) => volumeFiles(volumeOf(volumes, s), s))) });
    },
  }),
  // the data logger at work (device/logger/engine.ts LoggerStatus): the /log page shows it
  route({
    method: 'GET',
    path: '/config/log_status',
    key: 'log_status',
    access: 'user',
    handler: (c, ctx) => c.json(ctx.logger.status() satisfies LogStatus),
  }),
  // the technician has seen the deletions and dropped records the status shows (device/logger/notices.ts)
  route({
    method: 'POST',
    path: '/config/log_status/ack',
    key: 'log_status',
    access: 'admin',
    handler: async (c, ctx) => {
      const seen = await ctx.logger.acknowledge();
      await ctx.audit.write({
        action: 'log_notices_ack',
        user: c.get('session')!.user,
        source: c.get('source'),
        detail: { deleted: seen.deletedCount, dropped: seen.droppedCount },
      });
      return c.json(ctx.logger.status() satisfies LogStatus);
    },
  }),
  route({
    method: 'POST',
    path: '/config/delete_logfile',
    key: 'delete_logfile',
    access: 'admin',
    // 1000 names of up to 255 characters (JSON-quoted) are more than the 64 KiB of other bodies
    jsonLimit: DELETE_NAMES_MAX * 300,
    handler: async (c, ctx) => {
      const { storage, names } = await readBody(c, deleteRequest);
      const deleted = await deleteNamed(logFolder(volumeOf(await ctx.hw.volumes(), storage)), names);
      await ctx.audit.write({ action: 'logfile_delete', user: c.get('session')!.user, source: c.get('source'), detail: { storage, names: deleted } });
      return c.json({ deleted });
    },
  }),
  // matched before the planned catch-all GET /download/* (app.ts keeps this order)
  route({
    method: 'GET',
    path: '/download/log/:volume/:name',
    key: 'download/',
    access: 'user',
    handler: async (c, ctx) => {
      const storage = URL_VOLUMES.get(c.req.param('volume') ?? '');
      if (storage === undefined) throw new ApiError(404, 'not_found', 'No such volume');
      return download(c, logFolder(volumeOf(await ctx.hw.volumes(), storage)), c.req.param('name'), 'text/csv; charset=utf-8');
    },
  }),
  route({
    method: 'GET',
    path: '/download/logcfg/:name',
    key: 'download/',
    access: 'user',
    // mewtocol.md §9: a format file is text (the %DEF_… keys)
    handler: (c, ctx) => download(c, join(ctx.dataDir, FORMAT_FOLDER), c.req.param('name'), 'text/plain; charset=utf-8'),
  }),
];
