// Who is signed in (spec §6, §7 authentication call, response field currentUser) and what they
// may do: the user role sees everything read-only.
import { computed, signal } from '@preact/signals';
import { AUTH_PATH } from '../../device/model/start-answers.ts';
import type { Role } from '../../device/model/users.ts';
import { ApiFailure, get, mode, post, setCsrf, whenUnauthenticated } from '../api/client.ts';
import { fixedAdmin } from '../api/mode.ts';

export interface SessionInfo {
  currentUser: string;
  role: Role;
  csrfToken: string;
}

/** loading → setup (no administrator yet) | login | ready */
export const authState = signal<'loading' | 'setup' | 'login' | 'ready'>('loading');
export const session = signal<SessionInfo | null>(null);
export const readOnly = computed(() => session.value?.role !== 'admin');
/** why the login page is shown again ('unauthenticated' after expiry) */
export const loginReason = signal<string>('');

/** Takes a session the daemon handed out (login, setup, own password change). */
export function accept(s: SessionInfo) {
  setCsrf(s.csrfToken);
  session.value = s;
  authState.value = 'ready';
}

whenUnauthenticated(() => {
  if (authState.value !== 'ready') return;
  session.value = null;
  loginReason.value = 'session_expired';
  authState.value = 'login';
});

/** Asks the daemon who is signed in; decides between setup, login and the console. */
export async function checkSession(): Promise<void> {
  if (fixedAdmin(mode.value)) {
    // spec §6: local test and cloud mode work as admin; the server still decides what it accepts
    try {
      accept(await get<SessionInfo>(AUTH_PATH));
    } catch {
      accept({ currentUser: 'admin', role: 'admin', csrfToken: '' });
    }
    return;
  }
  try {
    accept(await get<SessionInfo>(AUTH_PATH));
  } catch (e) {
    authState.value = e instanceof ApiFailure && e.code === 'setup_required' ? 'setup' : 'login';
  }
}

export async function login(username: string, password: string): Promise<void> {
  accept(await post<SessionInfo>(AUTH_PATH, { username, password }));
  loginReason.value = '';
}

export async function createAdmin(username: string, password: string): Promise<void> {
  accept(await post<SessionInfo>(`${AUTH_PATH}/setup`, { username, password }));
}

export async function logout(): Promise<void> {
  try {
    await post(`${AUTH_PATH}/logout`);
  } catch {
    /* the session may already be gone */
  }
  setCsrf('');
  session.value = null;
  loginReason.value = '';
  authState.value = 'login';
}
