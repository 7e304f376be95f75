// A move's data asked with the move: on each change of the address (a menu click, a link, Back),
// the GETs the new page makes first (its module's early call, web/state/com-status.ts earlyInto, or
// its status watch's first call; /graphs' list of files) go out at once, and the page's request
// takes that answer (web/api/client.ts), instead of asking once the page's chunk is in and has run.
// A page whose code has run already makes its early call first, itself: nothing is asked beside it.
// At CPU 4× a first move to /log showed its data about 45 ms sooner, one to /graphs about 90 ms
// (paired consoles, 2026-12-04). Loaded after the console's first render (web/after-start.ts): the
// first load carries nothing of it, and the start's own page has its answers in the page.
import { ROUTE_DATA_PATHS } from '../../device/model/start-answers.ts';
import { type PageId, pageOf } from '../pages.ts';
import { hashPath } from '../router/hash.tsx';
import { send, sendWith } from './client.ts';

/** How old an answer asked ahead may be when its request comes; an older one is dropped and the request asks again. */
export const AHEAD_MS = 2000;

/** The GETs each page makes first; every service page asks for every service's status, as /mqtt does (web/state/service-status.ts). */
export const PAGE_DATA: Partial<Record<PageId, readonly string[]>> = {
  ...ROUTE_DATA_PATHS,
  ...Object.fromEntries((['sql', 'db', 'ftp', 'httpc', 'smtp'] as const).map((id) => [id, ROUTE_DATA_PATHS.mqtt])),
};

/** the GETs asked ahead, by path: the answer on its way and when it was asked */
const ahead = new Map<string, { at: number; res: Promise<Response> }>();

const recent = (a: { at: number } | undefined): a is { at: number; res: Promise<Response> } => a !== undefined && Date.now() - a.at <= AHEAD_MS;

/** the console's own GETs on their way (not asked ahead), by path: how many */
const onTheirWay = new Map<string, number>();

/**
 * Asks a GET of `path` now, for the request of it that comes within AHEAD_MS; not again while a
 * recent one is on its way, nor while the console's own request of it is: a page whose code has run
 * makes its early call in the router's listener of the same change of the address, which runs first
 * (listeners at the window run in the order they were added, capturing or not), and its data was
 * asked twice on every such move.
 */
export function askAhead(path: string): void {
  if (recent(ahead.get(path)) || onTheirWay.has(path)) return;
  const res = send('GET', path, undefined, 'application/json');
  res.catch(() => undefined); // taken, the request throws it; never taken, nobody waits for it
  ahead.set(path, { at: Date.now(), res });
}

/** The answer asked ahead for a GET of `path`, once, when it is recent; undefined when the request must ask. */
function takeAhead(path: string): Promise<Response> | undefined {
  const a = ahead.get(path);
  ahead.delete(path);
  return recent(a) ? a.res : undefined;
}

/** Asks the data of the page each change of the address leads to, and lets the console's requests (GETs) take the answers. */
export function askAheadOnMoves(): void {
  sendWith((method, path, body, accept) => {
    if (method !== 'GET') return send(method, path, body, accept);
    const taken = takeAhead(path);
    if (taken) return taken;
    const res = send(method, path, body, accept);
    onTheirWay.set(path, (onTheirWay.get(path) ?? 0) + 1);
    const arrived = () => {
      const n = (onTheirWay.get(path) ?? 1) - 1;
      if (n > 0) onTheirWay.set(path, n);
      else onTheirWay.delete(path);
    };
    res.then(arrived, arrived);
    return res;
  });
  addEventListener('hashchange', () => {
    const page = pageOf(hashPath(location.hash).split('?')[0]!);
    for (const path of (page && PAGE_DATA[page.id]) ?? []) askAhead(path);
  });
}
