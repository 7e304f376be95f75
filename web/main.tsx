// Entry of the console: theme and language first, then who is signed in, then the app.
import { render } from 'preact';
import './styles/app.css';
import { App } from './app.tsx';
import { initialLocale, setLocale } from './i18n/translate.ts';
import { preloadConsoleData } from './state/console-data.ts';
import { authState, checkSession } from './state/session.ts';
import './state/prefs.ts';
import { preloadPage } from './router/routes.tsx';

// who is signed in is asked while the dictionary and the page's code load: nothing waits for another;
// once signed in, the console's data is asked for at once, before the first render
void checkSession().then(() => {
  if (authState.value === 'ready') preloadConsoleData();
});
preloadPage(location.hash);
void setLocale(initialLocale()).then(() => render(<App />, document.getElementById('app')!));
