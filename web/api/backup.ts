// Backup and restore calls (spec §2 /backuprestore; docs/api.md get_backup, restore): the backup
// answer is a file, not JSON, and the restore sends the file as it is with the password in the
// X-Backup-Password header, so both talk to fetch directly and turn the daemon's error envelope
// into an ApiFailure like every other call.

import type { IssueParams } from '../../device/model/issues.ts';
import { ApiFailure, type ApiIssue, type ClientCode, csrfHeaders, mode } from './client.ts';
import { apiUrl } from './mode.ts';

export interface RestoreAnswer {
  ok: true;
  format: number;
  app: string;
  created: string;
  sections: string[];
  files: number;
}

/** A POST whose answer is a file (backup, audit log): the session's CSRF token, the error envelope as an ApiFailure. */
export async function postForFile(path: string, body: BodyInit, headers: Record<string, string>): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(apiUrl(mode.value, path), {
      method: 'POST',
      headers: { ...headers, ...csrfHeaders() },
      body,
      credentials: mode.value.base ? 'include' : 'same-origin',
    });
  } catch {
    throw new ApiFailure(0, 'connection_failed');
  }
  if (res.ok) return res;
  const data = (await res.json().catch(() => undefined)) as { error?: { code?: ClientCode; issues?: ApiIssue[]; params?: IssueParams } } | undefined;
  const e = data?.error;
  throw new ApiFailure(res.status, e?.code ?? (res.status >= 500 ? 'internal' : 'invalid_input'), e?.issues ?? [], e?.params);
}

/** The backup file and the name the daemon gave it. */
export async function fetchBackup(password?: string): Promise<{ name: string; blob: Blob }> {
  const res = await postForFile('/config/get_backup', JSON.stringify(password ? { password } : {}), { 'Content-Type': 'application/json' });
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'settings.i4csettings';
  return { name, blob: await res.blob() };
}

/** Restores a backup file; the password only when the file has one. */
export async function sendRestore(file: Blob, password: string): Promise<RestoreAnswer> {
  const res = await postForFile('/config/restore', file, {
    'Content-Type': 'application/octet-stream',
    ...(password ? { 'X-Backup-Password': password } : {}),
  });
  return (await res.json()) as RestoreAnswer;
}

/** Hands a file to the browser as a download. */
export function saveFile(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
