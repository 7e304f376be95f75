// The firmware update's rules shared by the console and the daemon (spec §2 /firmware, §4 firmware
// states, §5 "a .zip package and an .md5 file must be uploaded together; a wrong type, name or too
// large file is rejected; missing update files are reported", §8 update failed, §9 browser timeout
// 2 min and retry refresh about 90 s). Pure: the page checks the chosen files with the same rules
// the daemon applies to the request (POST /config/firmware, docs/firmware.md).
import * as v from 'valibot';

/** the largest image accepted, counted while streaming (the unit's image is a few MB) */
export const FIRMWARE_MAX = 64 * 1024 * 1024;
/** an .md5 file holds one hex digest and maybe a file name */
export const MD5_FILE_MAX = 1024;
export const FIRMWARE_NAME_MAX = 100;

/** spec §9 */
export const UPDATE_TICK_MS = 1500;
export const BROWSER_TIMEOUT_MS = 2 * 60 * 1000;
export const RETRY_REFRESH_MS = 90 * 1000;

/** spec §4: upload → updating → rebooting; `failed` keeps the reason of the last refused or rolled back attempt */
export const UPDATE_STATES = ['idle', 'upload', 'updating', 'rebooting', 'failed'] as const;
export type UpdateState = (typeof UPDATE_STATES)[number];

/** Why an update was refused (error code `update_refused`, params.reason) or failed. */
export const UPDATE_REFUSALS = [
  'missing_files', // spec §8 "some update files are missing"
  'file_type', // not a .zip and an .md5
  'file_name', // names with other characters, or an .md5 that is not the package's
  'too_large',
  'md5', // the .md5 does not match the package (transport check)
  'archive', // an unsafe or damaged archive (security.md ZIP-1; params.problem)
  'signature', // no manifest, no signature, or one no trusted key made (security.md FW-1)
  'content', // a file differs from the signed manifest, or is not listed in it
  'older', // an image for an older version than the running one (params.version, params.running)
  'incompatible', // the unit is below the image's minimum app, BSP or HMI version (params.kind, required, installed)
  'busy', // an update is running; it cannot be cancelled
  'unavailable', // the daemon runs without the supervisor that installs releases
  'start_failed', // the new release did not answer; the previous one runs again
] as const;
export type UpdateRefusal = (typeof UPDATE_REFUSALS)[number];

export interface UpdateStatus {
  state: UpdateState;
  /** the running version */
  version: string;
  /** the version being installed (upload, updating, rebooting) or that failed */
  target?: string;
  /** 0-100 within the current state */
  progress: number;
  reason?: UpdateRefusal;
  /** the outcome of the last install the supervisor finished (after a restart) */
  last?: { ok: boolean; version: string; from: string; at: string };
  /** a supervisor is there to install an update (else every update is refused as `unavailable`) */
  available?: boolean;
}

const FIRMWARE_NAME_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** The reason a pair of chosen files cannot be an update, checked before anything is sent. */
export function checkUpdateFiles(
  zip: { name: string; size: number } | undefined,
  md5: { name: string; size: number } | undefined,
): { reason: UpdateRefusal; params?: Record<string, number | string> } | undefined {
  if (!zip || !md5) return { reason: 'missing_files' };
  if (!/\.zip$/i.test(zip.name) || !/\.md5$/i.test(md5.name)) return { reason: 'file_type' };
  if (![zip.name, md5.name].every((n) => n.length <= FIRMWARE_NAME_MAX && FIRMWARE_NAME_RE.test(n))) return { reason: 'file_name' };
  const base = zip.name.slice(0, -4);
  if (md5.name !== `${base}.md5` && md5.name !== `${zip.name}.md5`) return { reason: 'file_name' };
  if (zip.size > FIRMWARE_MAX) return { reason: 'too_large', params: { max: FIRMWARE_MAX } };
  if (md5.size > MD5_FILE_MAX) return { reason: 'too_large', params: { max: MD5_FILE_MAX } };
  return undefined;
}

/** The hex digest of an .md5 file (`<hex>` or `<hex>  <name>`), or undefined. */
export function parseMd5File(text: string): string | undefined {
  const m = /^\s*([0-9a-fA-F]{32})(?:\s+\*?\S.*)?\s*$/.exec(text);
  return m?.[1]?.toLowerCase();
}

/** The query of POST /config/firmware: the package's raw bytes are the body, the .md5 file rides along. */
export const firmwareQuery = v.strictObject({
  name: v.pipe(v.string(), v.maxLength(FIRMWARE_NAME_MAX)),
  md5_name: v.pipe(v.string(), v.maxLength(FIRMWARE_NAME_MAX)),
  md5: v.pipe(v.string(), v.maxLength(MD5_FILE_MAX)),
});
export type FirmwareQuery = v.InferOutput<typeof firmwareQuery>;
