// The mode switches of spec §7. Normally the console talks to the unit that served it. For
// developing the console, "local test mode" sends every call to a local server (a running
// simulator), a "remote test base" sends them to another unit, and "cloud mode" reads system and
// service information from a local file and fixes the current user to admin (spec §6).
// Chosen with the URL query (`?mode=local&server=http://127.0.0.1:8080`, `?mode=remote&base=…`,
// `?mode=cloud&info=/sysinfo.json`, `?mode=unit` to go back) and remembered in localStorage.

export type ModeName = 'unit' | 'local' | 'remote' | 'cloud';
export interface Mode {
  name: ModeName;
  /** prefix of every API path ('' = the serving unit) */
  base: string;
  /** cloud mode: where system and service information come from */
  infoPath?: string;
}

export const UNIT_MODE: Mode = { name: 'unit', base: '' };
const KEY = 'console.mode';
const DEFAULT_LOCAL = 'http://127.0.0.1:8080';

const origin = (url: string | null): string | undefined => {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
};

/** The mode named by a URL query, or undefined when the query names none (or an invalid one). */
export function modeFromQuery(query: string): Mode | undefined {
  const q = new URLSearchParams(query);
  switch (q.get('mode')) {
    case 'unit':
      return UNIT_MODE;
    case 'local':
      return { name: 'local', base: origin(q.get('server')) ?? DEFAULT_LOCAL };
    case 'remote': {
      const base = origin(q.get('base'));
      return base ? { name: 'remote', base } : undefined;
    }
    case 'cloud': {
      const info = q.get('info') ?? '/sysinfo.json';
      // a local path only: cloud mode never reads system information from elsewhere
      return /^\/[A-Za-z0-9._/-]*$/.test(info) && !info.includes('..') ? { name: 'cloud', base: '', infoPath: info } : undefined;
    }
    default:
      return undefined;
  }
}

export function parseStoredMode(text: string | null): Mode {
  if (!text) return UNIT_MODE;
  try {
    const m = JSON.parse(text) as Partial<Mode>;
    const base = origin(m.base ?? null);
    if ((m.name === 'local' || m.name === 'remote') && base) return { name: m.name, base };
    if (m.name === 'cloud' && typeof m.infoPath === 'string') return modeFromQuery(`mode=cloud&info=${encodeURIComponent(m.infoPath)}`) ?? UNIT_MODE;
  } catch {
    /* a damaged entry means the normal mode */
  }
  return UNIT_MODE;
}

/** Reads the mode from the page URL (remembering it) or from storage. */
export function currentMode(search: string, storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined): Mode {
  const fromQuery = modeFromQuery(search);
  if (fromQuery) {
    if (fromQuery.name === 'unit') storage?.removeItem(KEY);
    else storage?.setItem(KEY, JSON.stringify(fromQuery));
    return fromQuery;
  }
  return parseStoredMode(storage?.getItem(KEY) ?? null);
}

/** The URL of an API path in a mode. */
export function apiUrl(mode: Mode, path: string): string {
  if (mode.name === 'cloud' && mode.infoPath && (path.startsWith('/rest/api/v1?') || path === '/rest/api/v1' || path === '/rest/api/v1/services'))
    return mode.infoPath;
  return mode.base + path;
}

/** spec §6: the current user is fixed to admin in local test and cloud mode. */
export const fixedAdmin = (mode: Mode) => mode.name === 'local' || mode.name === 'cloud';

/** spec §7: a COM answer that ended up on a machine_config page sends the browser there. */
export const machineConfigRedirect = (responseUrl: string): string | undefined => (responseUrl.includes('machine_config') ? responseUrl : undefined);
