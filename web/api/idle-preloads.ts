// The other framed pages' code and texts, which the daemon lists by route in the page (IDLE_PRELOADS_ID,
// device/model/first-frame.ts): made `<link rel="modulepreload">` links once the first page is shown
// and the browser is idle, so that a first move to /com, /port, /log, /mqtt or /graphs finds the
// page's chunk and its imports fetched and compiled (not run: a page's module asks for its data
// when it runs). Files already in the page are not asked for twice; the links are added a few at a
// time, each batch when the browser is idle.
import { IDLE_PRELOADS_ID, PRELOAD_FILE } from '../../device/model/first-frame.ts';

/** The routes listed and their files, once each, less the page's own scripts and preloads; nothing when the lists are not as the daemon writes them. */
function idleLists(doc: Document): { routes: string[]; files: string[] } {
  const none = { routes: [], files: [] };
  const el = doc.getElementById(IDLE_PRELOADS_ID);
  if (!el) return none;
  el.remove();
  let list: unknown;
  try {
    list = JSON.parse(el.textContent ?? '');
  } catch {
    return none;
  }
  // the lists by route, as the daemon writes them: nothing from anything else
  const lists = list && typeof list === 'object' && !Array.isArray(list) ? Object.values(list) : [];
  const files = lists.every((l): l is unknown[] => Array.isArray(l)) ? lists.flat() : [];
  if (files.length === 0 || !files.every((f): f is string => typeof f === 'string' && PRELOAD_FILE.test(f))) return none;
  const have = new Set(
    [...doc.querySelectorAll<HTMLLinkElement | HTMLScriptElement>('link[rel=modulepreload], script[src]')].map((e) =>
      new URL('href' in e ? e.href : e.src, doc.baseURI).pathname.slice(1),
    ),
  );
  return { routes: Object.keys(list as object), files: [...new Set(files)].filter((f) => !have.has(f)) };
}

/** The listed files of every route, once each, less the page's own scripts and preloads; none when the lists are not as the daemon writes them. */
export const idlePreloads = (doc: Document): string[] => idleLists(doc).files;

/**
 * Links added in one task: each costs the main thread 2-4 ms at CPU 4× (chromium, 2026-12-04), and
 * the lists hold some 60 files, which in one task would hold a click on the menu for 60-180 ms.
 */
export const IDLE_BATCH = 8;

/**
 * Adds the preload links of idlePreloads, IDLE_BATCH now and each next batch when `later` runs it
 * (the browser idle again); after the last batch hands the routes listed to `then` (none from a
 * list that is not as the daemon writes it).
 */
export function preloadIdle(doc: Document, later: (fn: () => void) => void, then: (routes: string[]) => void = () => undefined): void {
  const { routes, files } = idleLists(doc);
  const batch = () => {
    for (const href of files.splice(0, IDLE_BATCH)) {
      const link = doc.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      doc.head.append(link);
    }
    if (files.length > 0) later(batch);
    else then(routes);
  };
  batch();
}
