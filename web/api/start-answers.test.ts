// The daemon's answers that came with the page: the client takes each once instead of asking, a
// refusal among them throws as the daemon's own would; nothing is taken in a test or cloud mode.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ALL_SECTIONS_PATH, AUTH_PATH, ROUTE_DATA_PATHS, START_ANSWERS_ID, SYSTEM_INFO_PATH } from '../../device/model/start-answers.ts';
import { COM_STATUS_PATH } from './com.ts';
import { LOG_STATUS_PATH } from './log-status.ts';
import { ALL_LOGFILES_PATH } from './logfiles.ts';
import { PORT_STATUS_PATH } from './port.ts';
import { SERVICE_STATUS_PATH } from './service-status.ts';

let asked: string[];
let removed: number;

function pageWith(answers: unknown, search = '') {
  const el = { textContent: typeof answers === 'string' ? answers : JSON.stringify(answers), remove: () => void removed++ };
  vi.stubGlobal('document', { getElementById: (id: string) => (id === START_ANSWERS_ID ? el : null) });
  vi.stubGlobal('location', { search, href: '' });
}

beforeEach(() => {
  vi.resetModules();
  asked = [];
  removed = 0;
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    return new Response(JSON.stringify({ asked: url }), { status: 200, headers: { 'content-type': 'application/json' } });
  });
});
// the modules imported under the stubs (client.ts's mode read from the stubbed location) leave the
// registry with them: the files run after this one in the same worker import their own
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('start answers', () => {
  it('each answer is taken once, then the daemon is asked; the element is read once and removed', async () => {
    pageWith({ [SYSTEM_INFO_PATH]: { status: 200, body: { os: { hostname: 'unit' } } }, [ALL_SECTIONS_PATH]: { status: 200, body: { pew: {} } } });
    const { get } = await import('./client.ts');
    expect(await get(SYSTEM_INFO_PATH)).toEqual({ os: { hostname: 'unit' } });
    expect(await get(ALL_SECTIONS_PATH)).toEqual({ pew: {} });
    expect(asked).toEqual([]);
    expect(await get(SYSTEM_INFO_PATH)).toEqual({ asked: SYSTEM_INFO_PATH });
    expect(asked).toEqual([SYSTEM_INFO_PATH]);
    expect(removed).toBe(1);
  });

  it('a refusal in the page throws the daemon’s code, as asking would', async () => {
    pageWith({ [AUTH_PATH]: { status: 401, body: { error: { code: 'setup_required' } } } });
    const { get, ApiFailure } = await import('./client.ts');
    const e = await get(AUTH_PATH).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiFailure);
    expect(e).toMatchObject({ status: 401, code: 'setup_required' });
    expect(asked).toEqual([]);
  });

  it('a POST is never answered from the page', async () => {
    pageWith({ [AUTH_PATH]: { status: 200, body: { currentUser: 'admin' } } });
    const { post } = await import('./client.ts');
    expect(await post(AUTH_PATH, { username: 'a', password: 'b' })).toEqual({ asked: AUTH_PATH });
  });

  it('a damaged element, or an answer without a status, means asking the daemon', async () => {
    pageWith('{not json');
    let client = await import('./client.ts');
    expect(await client.get(AUTH_PATH)).toEqual({ asked: AUTH_PATH });
    vi.resetModules();
    pageWith({ [AUTH_PATH]: { body: { currentUser: 'admin' } } });
    client = await import('./client.ts');
    expect(await client.get(AUTH_PATH)).toEqual({ asked: AUTH_PATH });
  });

  it('in a test or cloud mode the page’s answers are not used', async () => {
    pageWith({ [SYSTEM_INFO_PATH]: { status: 200, body: { os: { hostname: 'unit' } } } }, '?mode=local&server=http://127.0.0.1:9000');
    vi.stubGlobal('localStorage', { getItem: () => null, setItem: () => {}, removeItem: () => {} });
    const { get } = await import('./client.ts');
    expect(await get(SYSTEM_INFO_PATH)).toEqual({ asked: `http://127.0.0.1:9000${SYSTEM_INFO_PATH}` });
  });

  it('a page’s data the start did not take is forgotten, and asked for when that page opens; the start data stays', async () => {
    pageWith({ [COM_STATUS_PATH]: { status: 200, body: { interfaces: [] } }, [SYSTEM_INFO_PATH]: { status: 200, body: { os: { hostname: 'unit' } } } });
    const { get } = await import('./client.ts');
    const { forgetStartAnswers } = await import('./forget-start-answers.ts');
    forgetStartAnswers();
    expect(await get(COM_STATUS_PATH)).toEqual({ asked: COM_STATUS_PATH });
    expect(await get(SYSTEM_INFO_PATH)).toEqual({ os: { hostname: 'unit' } });
  });
});

describe('the data of a framed page', () => {
  it('are the requests the page makes before its first render', () => {
    expect(ROUTE_DATA_PATHS).toEqual({
      info: [],
      com: [COM_STATUS_PATH],
      port: [PORT_STATUS_PATH],
      log: [LOG_STATUS_PATH],
      mqtt: [SERVICE_STATUS_PATH],
      graphs: [ALL_LOGFILES_PATH],
    });
  });
});
