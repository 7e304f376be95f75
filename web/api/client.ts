// The console's one way to talk to the daemon: JSON in and out, the session's CSRF token on every
// POST, the daemon's error envelope turned into an ApiFailure with its stable code and issues.
import { signal } from '@preact/signals';
import type { ErrorCode, IssueParams } from '../../device/model/issues.ts';
import { apiUrl, currentMode, machineConfigRedirect, type Mode } from './mode.ts';

export interface ApiIssue {
  section?: string;
  path: string;
  code: ErrorCode;
  params?: IssueParams;
}

/** Codes the console adds for failures that never reached the daemon's envelope. */
export type ClientCode = ErrorCode | 'connection_failed';

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: ClientCode,
    readonly issues: ApiIssue[] = [],
    readonly params?: IssueParams,
  ) {
    super(code);
  }
}

export const mode = signal<Mode>(typeof location === 'undefined' ? { name: 'unit', base: '' } : currentMode(location.search, safeStorage()));
let csrfToken = '';
export const setCsrf = (token: string) => { csrfToken = token; };
/** The CSRF header for a POST that does not go through `request` (binary answers: backup download). */
export const csrfHeaders = (): Record<string, string> => (csrfToken ? { 'X-CSRF-Token': csrfToken } : {});
/** Called when the daemon says the session is gone (the shell shows the login page). */
let onUnauthenticated: (code: ClientCode) => void = () => {};
export const whenUnauthenticated = (fn: (code: ClientCode) => void) => { onUnauthenticated = fn; };

function safeStorage(): Storage | undefined {
  try { return localStorage; } catch { return undefined; }
}

export async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method === 'POST') {
    // a file (upload) goes as it is, everything else as JSON
    headers['Content-Type'] = body instanceof Blob ? 'application/octet-stream' : 'application/json';
    if (csrfToken) headers['X-CSRF-Token'] = csrfToken;
  }
  let res: Response;
  try {
    res = await fetch(apiUrl(mode.value, path), {
      method,
      headers,
      body: method === 'POST' ? (body instanceof Blob ? body : JSON.stringify(body ?? {})) : undefined,
      credentials: mode.value.base ? 'include' : 'same-origin',
    });
  } catch {
    throw new ApiFailure(0, 'connection_failed');
  }
  const away = res.redirected ? machineConfigRedirect(res.url) : undefined;
  if (away) {
    location.href = away;
    throw new ApiFailure(0, 'connection_failed');
  }
  const data = await res.json().catch(() => undefined) as unknown;
  if (res.ok) return data as T;
  const err = (data as { error?: { code?: ClientCode; issues?: ApiIssue[]; params?: IssueParams } } | undefined)?.error;
  const failure = new ApiFailure(res.status, err?.code ?? (res.status >= 500 ? 'internal' : 'invalid_input'), err?.issues ?? [], err?.params);
  if (res.status === 401 && path !== '/rest/api/v1/authentication') onUnauthenticated(failure.code);
  throw failure;
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, body);
/** POSTs a file as the raw body (`POST /config/upload`). */
export const postFile = <T>(path: string, file: Blob) => request<T>('POST', path, file);
