// A copy of the preferences the console shows in, and of the page it shows, for the daemon: it
// renders the first frame of that page in them (device/model/first-frame.ts). The browser's storage
// stays where the preferences are kept (web/state/prefs.ts).
import { effect, signal } from '@preact/signals';
import { encodePrefs, PREFS_COOKIE, routeOfHash } from '../../device/model/first-frame.ts';
import { locale } from '../i18n/translate.ts';
import { filter, theme } from './prefs.ts';

const YEAR_S = 31_536_000;

/** Sets the cookie unless it holds `value` already: through the Cookie Store (not on the main thread) where the browser has it. */
async function keep(value: string): Promise<void> {
  const store = (globalThis as { cookieStore?: CookieStore }).cookieStore;
  if (store) {
    if ((await store.get(PREFS_COOKIE))?.value !== value)
      await store.set({ name: PREFS_COOKIE, value, path: '/', expires: Date.now() + YEAR_S * 1000, sameSite: 'strict' });
    return;
  }
  if (document.cookie.split('; ').includes(`${PREFS_COOKIE}=${value}`)) return;
  // biome-ignore lint/suspicious/noDocumentCookie: a browser without the Cookie Store (Firefox before 140, Safari before 18.4)
  document.cookie = `${PREFS_COOKIE}=${value}; Path=/; Max-Age=${YEAR_S}; SameSite=Strict`;
}

/**
 * Keeps the cookie equal to the language, theme and menu filter in use and to the route of the page
 * shown: set when one changes (a move between pages costs a comparison; the Cookie Store sets it
 * off the main thread), and at start only when the cookie differs.
 */
export function keepPrefsCookie(): void {
  const route = signal(routeOfHash(location.hash));
  addEventListener('hashchange', () => {
    route.value = routeOfHash(location.hash);
  });
  effect(() => {
    void keep(encodePrefs({ locale: locale.value, theme: theme.value, filter: filter.value, route: route.value })).catch(() => {
      /* cookies refused: the daemon renders no first frame */
    });
  });
}
