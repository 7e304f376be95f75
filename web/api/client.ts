// The console's one way to talk to the daemon: JSON in and out, the session's CSRF token on every
// POST, the daemon's error envelope turned into an ApiFailure with its stable code and issues.
import { signal } from '@preact/signals';
import type { ErrorCode, IssueParams } from '../../device/model/issues.ts';
import { AUTH_PATH } from '../../device/model/start-answers.ts';
import { apiUrl, currentMode, type Mode, machineConfigRedirect } from './mode.ts';
import { takeStartAnswer } from './start-answers.ts';

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
export const setCsrf = (token: string) => {
  csrfToken = token;
};
/** The CSRF header for a POST that does not go through `request` (binary answers: backup download). */
export const csrfHeaders = (): Record<string, string> => (csrfToken ? { 'X-CSRF-Token': csrfToken } : {});
/** Called when the daemon says the session is gone (the shell shows the login page). */
let onUnauthenticated: (code: ClientCode) => void = () => {};
export const whenUnauthenticated = (fn: (code: ClientCode) => void) => {
  onUnauthenticated = fn;
};

function safeStorage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

/** Sends a request; a failure to reach the daemon, or a redirect to the machine configuration, throws. */
export async function send(method: 'GET' | 'POST', path: string, body: unknown, accept: string): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
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
  return res;
}

/** The ApiFailure of a refused request (the daemon's error envelope in `data`); a 401 signs the console out. */
function refusal(status: number, path: string, data: unknown): ApiFailure {
  const err = (data as { error?: { code?: ClientCode; issues?: ApiIssue[]; params?: IssueParams } } | undefined)?.error;
  const failure = new ApiFailure(status, err?.code ?? (status >= 500 ? 'internal' : 'invalid_input'), err?.issues ?? [], err?.params);
  if (status === 401 && path !== AUTH_PATH) onUnauthenticated(failure.code);
  return failure;
}

/** How `request` sends: `send`, or once web/api/ask-ahead.ts is loaded, its answer of a GET asked ahead when it has one. */
let sendRequest = send;
export const sendWith = (s: typeof send) => {
  sendRequest = s;
};

export async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  // the daemon's answer that came with the page (web/api/start-answers.ts), in the unit's own mode
  const early = method === 'GET' && mode.value.name === 'unit' ? takeStartAnswer(path) : undefined;
  if (early) {
    if (early.status >= 200 && early.status < 300) return early.body as T;
    throw refusal(early.status, path, early.body);
  }
  const res = await sendRequest(method, path, body, 'application/json');
  const data = (await res.json().catch(() => undefined)) as unknown;
  if (res.ok) return data as T;
  throw refusal(res.status, path, data);
}

/**
 * POSTs `body` asking for JSON lines (application/x-ndjson) and gives each line to `onLine` as it
 * arrives; a refusal throws as `request` does. A daemon that answers one JSON object instead gives
 * that object as the one line.
 */
export async function postLines(path: string, body: unknown, onLine: (line: unknown) => void): Promise<void> {
  const res = await send('POST', path, body, 'application/x-ndjson, application/json;q=0.5');
  if (!res.ok) throw refusal(res.status, path, await res.json().catch(() => undefined));
  if (!res.body || !res.headers.get('Content-Type')?.startsWith('application/x-ndjson')) {
    onLine(await res.json().catch(() => undefined));
    return;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      rest += value ?? '';
      const lines = rest.split('\n');
      rest = lines.pop() ?? '';
      if (done) lines.push(rest);
      for (const l of lines) if (l.trim()) onLine(JSON.parse(l));
      if (done) break;
    }
  } catch (e) {
    throw e instanceof ApiFailure ? e : e instanceof SyntaxError ? new ApiFailure(200, 'internal') : new ApiFailure(0, 'connection_failed');
  }
}

export const get = <T>(path: string) => request<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, body);
/** POSTs a file as the raw body (`POST /config/upload`). */
export const postFile = <T>(path: string, file: Blob) => request<T>('POST', path, file);
