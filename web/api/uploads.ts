// Uploads, certificates and script files as the console calls them (spec §7 upload, delete_cert,
// get_defscript, writefile, download/pew_script.cfg). A chosen file is checked with the daemon's
// own rules (device/model/uploads.ts) before it is sent: a wrong name or a file over the cap is
// refused at once with the code the daemon would answer.
import * as v from 'valibot';
import { toIssues } from '../../device/model/section.ts';
import { type CertInfo, type CertSection, UPLOAD_MAX, type UploadQuery, uploadQuery } from '../../device/model/uploads.ts';
import { ApiFailure, get, mode, post, postFile } from './client.ts';
import { apiUrl } from './mode.ts';

/** a file of the script folder as get_scripts lists it */
export interface ScriptEntry {
  name: string;
  size: number;
  mtime: number;
}

export const uploadPath = (q: UploadQuery): string => `/config/upload?${new URLSearchParams(Object.entries(q) as [string, string][]).toString()}`;

/** Sends `file` as the upload `q`; throws ApiFailure (the daemon's code, or the same code found here). */
export async function uploadFile<T = { name: string; size: number }>(q: UploadQuery, file: Blob): Promise<T> {
  const parsed = v.safeParse(uploadQuery, q);
  if (!parsed.success) throw new ApiFailure(400, 'invalid_input', toIssues(parsed.issues));
  const max = UPLOAD_MAX[q.kind];
  if (file.size > max) throw new ApiFailure(413, 'file_too_large', [], { max, bytes: file.size });
  return postFile<T>(uploadPath(q), file);
}

export const getCerts = async (section: CertSection): Promise<CertInfo[]> =>
  (await get<{ certs: CertInfo[] }>(`/config/get_certs?section=${encodeURIComponent(section)}`)).certs;

export const deleteCert = (section: CertSection, name: string) =>
  post<{ deleted: { section: string; name: string } }>('/config/delete_cert', { section, name });

export const getDefaultScript = () => get<{ name: string; content: string }>('/config/get_defscript');

export const getScripts = () => get<{ active: string; files: ScriptEntry[] }>('/config/get_scripts');

export const writeScript = (content: string) => post<{ name: string; size: number }>('/config/writefile', { content });

/** Where a script file of the folder is downloaded. */
export const scriptUrl = (name: string): string => apiUrl(mode.value, `/download/scripts/${encodeURIComponent(name)}`);

/** The text of a script file of the folder (to load it into the editor). */
export async function readScript(name: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(scriptUrl(name), { credentials: mode.value.base ? 'include' : 'same-origin' });
  } catch {
    throw new ApiFailure(0, 'connection_failed');
  }
  if (!res.ok) throw new ApiFailure(res.status, res.status === 404 ? 'file_not_found' : 'internal');
  return res.text();
}
