// A move's data asked with the move (web/api/ask-ahead.ts): a change of the address asks the GETs
// the new page makes first, and the page's request takes that answer once, as if it had asked
// itself; an old one or a POST is never served from it, a refusal or failure throws at the request.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_PATH } from '../../device/model/start-answers.ts';
import { PAGE_IDS } from '../pages.ts';
import { COM_STATUS_PATH } from './com.ts';
import { LOG_STATUS_PATH } from './log-status.ts';
import { SERVICE_STATUS_PATH } from './service-status.ts';

let asked: string[];
let answer: (url: string) => Response | Promise<Response>;
let onHashChange: () => void;
const hash = { value: '' };

beforeEach(() => {
  vi.resetModules();
  asked = [];
  answer = (url) => new Response(JSON.stringify({ n: asked.length, url }), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal('document', { getElementById: () => null });
  vi.stubGlobal('location', {
    search: '',
    href: '',
    get hash() {
      return hash.value;
    },
  });
  vi.stubGlobal('addEventListener', (type: string, fn: () => void) => {
    if (type === 'hashchange') onHashChange = fn;
  });
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    return answer(url);
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.resetModules();
});

/** the console after its start: asking ahead on moves */
async function started() {
  const ahead = await import('./ask-ahead.ts');
  const client = await import('./client.ts');
  ahead.askAheadOnMoves();
  const move = (to: string) => {
    hash.value = to;
    onHashChange();
  };
  return { ...ahead, ...client, move };
}

describe('a move asks for the new page’s data', () => {
  it('at the change of the address; the page’s first request takes that answer, the next one asks again', async () => {
    const { get, move } = await started();
    move('#/log');
    expect(asked).toEqual([LOG_STATUS_PATH]);
    expect(await get(LOG_STATUS_PATH)).toEqual({ n: 1, url: LOG_STATUS_PATH });
    expect(asked).toEqual([LOG_STATUS_PATH]);
    expect(await get(LOG_STATUS_PATH)).toEqual({ n: 2, url: LOG_STATUS_PATH });
  });

  it('a service page asks for every service’s status; a page with a query too; a page without early data asks nothing', async () => {
    const { move } = await started();
    move('#/sql');
    move('#/com?from=overview');
    move('#/legal');
    move('#/info');
    move('#/nowhere');
    expect(asked).toEqual([SERVICE_STATUS_PATH, COM_STATUS_PATH]);
  });

  it('is asked once while a recent one is on its way; another path is not served from it', async () => {
    const { get, move } = await started();
    move('#/log');
    move('#/log');
    expect(asked).toEqual([LOG_STATUS_PATH]);
    expect(await get(COM_STATUS_PATH)).toEqual({ n: 2, url: COM_STATUS_PATH });
    expect(await get(LOG_STATUS_PATH)).toEqual({ n: 1, url: LOG_STATUS_PATH });
  });

  it('is not asked while the console’s own request of it is on its way (a page’s early call made first); once that is answered, the next move asks again', async () => {
    let release: () => void = () => undefined;
    answer = (url) =>
      new Promise((r) => {
        release = () => r(new Response(JSON.stringify({ n: asked.length, url }), { status: 200, headers: { 'content-type': 'application/json' } }));
      });
    const { get, move } = await started();
    const early = get(LOG_STATUS_PATH);
    move('#/log');
    expect(asked).toEqual([LOG_STATUS_PATH]);
    release();
    expect(await early).toEqual({ n: 1, url: LOG_STATUS_PATH });
    answer = (url) => new Response(JSON.stringify({ n: asked.length, url }), { status: 200, headers: { 'content-type': 'application/json' } });
    move('#/log');
    expect(asked).toEqual([LOG_STATUS_PATH, LOG_STATUS_PATH]);
    expect(await get(LOG_STATUS_PATH)).toEqual({ n: 2, url: LOG_STATUS_PATH });
  });

  it('an answer older than AHEAD_MS is dropped: the request asks again, and the next move asks anew', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { get, move, AHEAD_MS } = await started();
    move('#/log');
    vi.setSystemTime(Date.now() + AHEAD_MS + 1);
    expect(await get(LOG_STATUS_PATH)).toEqual({ n: 2, url: LOG_STATUS_PATH });
    move('#/log');
    vi.setSystemTime(Date.now() + AHEAD_MS + 1);
    move('#/log'); // the one before is old: asked again
    expect(asked).toEqual([LOG_STATUS_PATH, LOG_STATUS_PATH, LOG_STATUS_PATH, LOG_STATUS_PATH]);
    expect(await get(LOG_STATUS_PATH)).toEqual({ n: 4, url: LOG_STATUS_PATH });
  });

  it('a refusal or a failure to reach the daemon throws at the request as its own would; never taken, it throws nowhere', async () => {
    answer = () => new Response(JSON.stringify({ error: { code: 'forbidden' } }), { status: 403, headers: { 'content-type': 'application/json' } });
    const { get, move, ApiFailure } = await started();
    move('#/log');
    const refused = await get(LOG_STATUS_PATH).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiFailure);
    expect(refused).toMatchObject({ status: 403, code: 'forbidden' });
    answer = () => Promise.reject(new TypeError('network'));
    move('#/log');
    expect(await get(LOG_STATUS_PATH).catch((e: unknown) => e)).toMatchObject({ status: 0, code: 'connection_failed' });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    move('#/port');
    await new Promise((r) => setTimeout(r, 0));
    await new Promise((r) => setImmediate(r));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });

  it('a POST is never answered from it', async () => {
    const { askAhead, post } = await started();
    askAhead(AUTH_PATH);
    expect(await post(AUTH_PATH, { username: 'a', password: 'b' })).toEqual({ n: 2, url: AUTH_PATH });
  });

  it('before the console’s start has loaded it, a request asks for itself', async () => {
    const { get } = await import('./client.ts');
    expect(await get(LOG_STATUS_PATH)).toEqual({ n: 1, url: LOG_STATUS_PATH });
  });
});

describe('the data each page asks for first', () => {
  it('lists every page whose module has an early call (it asks for the data before each first render)', async () => {
    const { PAGE_DATA } = await import('./ask-ahead.ts');
    const dir = new URL('../pages/', import.meta.url);
    const early = readdirSync(dir)
      .filter((f) => f.endsWith('.tsx') && /^export (const early =|async function early\()/m.test(readFileSync(new URL(f, dir), 'utf8')))
      .map((f) => f.replace('.tsx', '').replace('-', '_'));
    expect(early.length).toBeGreaterThan(5);
    for (const id of early) expect(PAGE_IDS).toContain(id);
    const listed = Object.entries(PAGE_DATA)
      .filter(([, paths]) => paths && paths.length > 0)
      .map(([id]) => id);
    expect(listed.sort()).toEqual(early.sort());
  });
});
