// The trend page's two calls (spec §7 all_logfiles, download/): the log files of every volume, and
// one file's bytes through the download route, refused past 10 MB (spec §9) before its body is read
// when the daemon announces the length, and after reading when it does not.
import { ApiFailure, get, mode } from '../api/client.ts';
import { apiUrl } from '../api/mode.ts';
import { TREND_MAX_BYTES } from './csv-trend.ts';

export const ALL_LOGFILES_PATH = '/config/all_logfiles';
/** spec §3 storage internal 0, USB 1, temp 2: the volume's name in /download/log/<volume>/<name> */
export const STORAGE_URL_NAMES = ['intern', 'usb', 'temp'] as const;
export type Storage = 0 | 1 | 2;

export interface LogFileEntry {
  name: string;
  size: number;
  /** ms since the epoch */
  mtime: number;
}

export interface LogVolume {
  storage: Storage;
  mounted: boolean;
  files: LogFileEntry[];
}

const isEntry = (f: unknown): f is LogFileEntry => {
  const e = f as Partial<LogFileEntry> | null;
  return typeof e === 'object' && e !== null && typeof e.name === 'string' && Number.isFinite(e.size) && Number.isFinite(e.mtime);
};

const isVolume = (x: unknown): x is LogVolume => {
  const o = x as Partial<LogVolume> | null;
  return (
    typeof o === 'object' &&
    o !== null &&
    (o.storage === 0 || o.storage === 1 || o.storage === 2) &&
    typeof o.mounted === 'boolean' &&
    Array.isArray(o.files) &&
    o.files.every(isEntry)
  );
};

/** Every volume's log files; an answer of another shape throws ApiFailure 'internal'. */
export async function fetchLogVolumes(): Promise<LogVolume[]> {
  const body = await get<unknown>(ALL_LOGFILES_PATH);
  const volumes = (body as { volumes?: unknown } | undefined)?.volumes;
  if (!Array.isArray(volumes) || !volumes.every(isVolume)) throw new ApiFailure(200, 'internal');
  return volumes;
}

export const downloadPath = (storage: Storage, name: string) => `/download/log/${STORAGE_URL_NAMES[storage]}/${encodeURIComponent(name)}`;

export type Download = { ok: true; bytes: Uint8Array } | { ok: false; error: 'too_large'; bytes: number };

/** The bytes of one log file; a failed call throws ApiFailure with the daemon's code. */
export async function downloadLogFile(storage: Storage, name: string, max = TREND_MAX_BYTES): Promise<Download> {
  let res: Response;
  try {
    res = await fetch(apiUrl(mode.value, downloadPath(storage, name)), { credentials: mode.value.base ? 'include' : 'same-origin' });
  } catch {
    throw new ApiFailure(0, 'connection_failed');
  }
  if (!res.ok) {
    const err = ((await res.json().catch(() => undefined)) as { error?: { code?: string } } | undefined)?.error;
    throw new ApiFailure(res.status, (err?.code ?? (res.status === 404 ? 'file_not_found' : 'internal')) as ApiFailure['code']);
  }
  const announced = Number(res.headers.get('Content-Length') ?? NaN);
  if (announced > max) {
    await res.body?.cancel();
    return { ok: false, error: 'too_large', bytes: announced };
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  return bytes.length > max ? { ok: false, error: 'too_large', bytes: bytes.length } : { ok: true, bytes };
}
