// Entry of the console: theme and language first, then who is signed in, then the app.
import { render } from 'preact';
import { App } from './app.tsx';
import { initialLocale, setLocale } from './i18n/translate.ts';
import { preloadConsoleData } from './state/console-data.ts';
import { authState, checkSession } from './state/session.ts';
import './state/prefs.ts';
import { preloadPage } from './router/routes.tsx';

// who is signed in is asked while the dictionary and the page's code load: nothing waits for another;
// once signed in, the console's data is asked for at once, before the first render
const FIRST_RENDER_WAIT_MS = 1000;
const data = checkSession().then(() => (authState.value === 'ready' ? preloadConsoleData() : undefined));
const firstPage = preloadPage(location.hash);
// the first render waits for the signed-in console's data and the opened page's code: one render
// with the page and its data rather than the shell first and the page again when its chunk or the
// data comes (on a slow CPU that second render and its layout are what the technician waits for);
// a unit slow to answer gets the console with its loading state after FIRST_RENDER_WAIT_MS
const waited = Promise.race([Promise.all([data, firstPage]).catch(() => undefined), new Promise((r) => setTimeout(r, FIRST_RENDER_WAIT_MS))]);
void Promise.all([setLocale(initialLocale()), waited]).then(() => render(<App />, document.getElementById('app')!));
