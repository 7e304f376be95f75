// The calls of the /log page's file list (spec §2 /log "list/download log files", §7 get_files_intern,
// get_files_usb, get_files_temp, all_logfiles, delete_logfile, get_cfg, download/). Every answer is
// checked against its schema, so a reply of another daemon version shows as "not available" instead
// of breaking the page.
import * as v from 'valibot';
import { STORAGES } from '../../device/model/sections/log.ts';
import { ApiFailure, get, mode, post } from './client.ts';
import { apiUrl } from './mode.ts';

/** spec §3 storage: internal 0, USB 1, temp 2 */
export type Storage = (typeof STORAGES)[number];
/** the list key and the download folder of each storage */
const VOLUME_NAMES = { 0: 'intern', 1: 'usb', 2: 'temp' } as const satisfies Record<Storage, string>;

export const logFileEntrySchema = v.object({ name: v.string(), size: v.pipe(v.number(), v.minValue(0)), mtime: v.number() });
export const volumeFilesSchema = v.object({ storage: v.picklist(STORAGES), mounted: v.boolean(), files: v.array(logFileEntrySchema) });
export const allLogFilesSchema = v.object({ volumes: v.array(volumeFilesSchema) });
const deletedSchema = v.object({ deleted: v.array(v.string()) });
const formatFilesSchema = v.object({ files: v.array(v.string()) });

export type LogFileEntry = v.InferOutput<typeof logFileEntrySchema>;
export type VolumeFiles = v.InferOutput<typeof volumeFilesSchema>;

export const listPath = (storage: Storage) => `/config/get_files_${VOLUME_NAMES[storage]}`;
export const ALL_LOGFILES_PATH = '/config/all_logfiles';
export const DELETE_LOGFILE_PATH = '/config/delete_logfile';
export const FORMAT_FILES_PATH = '/config/get_cfg';

function checked<S extends v.GenericSchema>(schema: S, answer: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, answer);
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}

/** The log files of one storage, sorted by name as the daemon sends them. */
export async function fetchLogFiles(storage: Storage): Promise<VolumeFiles> {
  return checked(volumeFilesSchema, await get<unknown>(listPath(storage)));
}

/** The log files of every storage. */
export async function fetchAllLogFiles(): Promise<VolumeFiles[]> {
  return checked(allLogFilesSchema, await get<unknown>(ALL_LOGFILES_PATH)).volumes;
}

/**
 * Deletes files of a storage; answers the names deleted. A name that is not one of the folder is
 * refused (400 `invalid_file_name`), a missing file 404 `file_not_found`; then nothing is deleted.
 */
export async function deleteLogFiles(storage: Storage, names: readonly string[]): Promise<string[]> {
  return checked(deletedSchema, await post<unknown>(DELETE_LOGFILE_PATH, { storage, names })).deleted;
}

/** The CSV format files (`.cfg`) in the unit's logcfg folder. */
export async function fetchFormatFiles(): Promise<string[]> {
  return checked(formatFilesSchema, await get<unknown>(FORMAT_FILES_PATH)).files;
}

/** Where a log file is downloaded. */
export const logFileUrl = (storage: Storage, name: string): string => apiUrl(mode.value, `/download/log/${VOLUME_NAMES[storage]}/${encodeURIComponent(name)}`);

/** Where a CSV format file is downloaded. */
export const formatFileUrl = (name: string): string => apiUrl(mode.value, `/download/logcfg/${encodeURIComponent(name)}`);
