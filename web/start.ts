// The console's start, shared by the browser (web/main.tsx, which then renders into #app) and the
// daemon's first frame (web/first-frame.tsx, which renders the same App to HTML from the answers
// index.html carries): theme and language, who is signed in, the signed-in console's data and the
// opened page's code.
import { initialLocale, setLocale } from './i18n/translate.ts';
import { preloadPage } from './router/routes.tsx';
import { preloadConsoleData } from './state/console-data.ts';
import { authState, checkSession } from './state/session.ts';
import './state/prefs.ts';

// who is signed in is asked while the dictionary and the page's code load: nothing waits for another;
// once signed in, the console's data is asked for at once, before the first render
const FIRST_RENDER_WAIT_MS = 1000;

/**
 * Done when the first render can begin. It waits for the signed-in console's data and the opened
 * page's code: one render with the page and its data rather than the shell first and the page again
 * when its chunk or the data comes (on a slow CPU that second render and its layout are what the
 * technician waits for); a unit slow to answer gets the console with its loading state after
 * FIRST_RENDER_WAIT_MS.
 */
export function startConsole(hash: string): Promise<void> {
  const data = checkSession().then(() => (authState.value === 'ready' ? preloadConsoleData() : undefined));
  const firstPage = preloadPage(hash);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = Promise.race([
    Promise.all([data, firstPage]).catch(() => undefined),
    new Promise((r) => {
      timer = setTimeout(r, FIRST_RENDER_WAIT_MS);
    }),
  ]);
  return Promise.all([setLocale(initialLocale()), waited]).then(() => clearTimeout(timer));
}
