// Users administration, active sessions and the audit log (docs/api.md rows users…, sessions…,
// audit…): the calls of the users page. The daemon checks every body with the same schemas.

import type { AuditEntry, Role } from '../../device/model/users.ts';
import { accept, type SessionInfo } from '../state/session.ts';
import { postForFile } from './backup.ts';
import { get, post } from './client.ts';

export interface UserRow {
  name: string;
  role: Role;
  created: string;
}
export interface SessionRow {
  handle: string;
  user: string;
  role: Role;
  source: string;
  created: string;
  lastSeen: string;
  current: boolean;
}
export interface AuditPage {
  entries: AuditEntry[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

export const AUDIT_DOWNLOAD_PATH = '/config/audit/download';
/** The whole audit log as a file: a POST, since the download is itself audited (docs/api.md HDR-4). */
export const fetchAuditLog = async (): Promise<Blob> => (await postForFile(AUDIT_DOWNLOAD_PATH, '{}', { 'Content-Type': 'application/json' })).blob();

export const listUsers = async () => (await get<{ users: UserRow[] }>('/config/users')).users;
export const addUser = async (username: string, role: Role, password: string) =>
  (await post<{ users: UserRow[] }>('/config/users/add', { username, role, password })).users;
export const removeUser = async (username: string) => (await post<{ users: UserRow[] }>('/config/users/remove', { username })).users;
/** An administrator sets another user's password (that user's sessions end). */
export const setUserPassword = (username: string, password: string) => post<{ ok: true }>('/config/users/password', { username, password });

/** The own password; this browser continues in the fresh session the daemon hands back. */
export async function changeOwnPassword(current: string, password: string): Promise<void> {
  const r = await post<{ ok: true; session?: SessionInfo }>('/config/users/password', { current, password });
  if (r.session) accept(r.session);
}

export const listSessions = async () => (await get<{ sessions: SessionRow[] }>('/config/sessions')).sessions;
export const endSession = (handle: string) => post<{ ok: true }>('/config/sessions/end', { handle });
export const auditPage = (page: number, size: number) => get<AuditPage>(`/config/audit?page=${page}&size=${size}`);
