// Entry of the console: theme and language first, then who is signed in, then the app.
import { render } from 'preact';
import './styles/app.css';
import { App } from './app.tsx';
import { initialLocale, setLocale } from './i18n/translate.ts';
import { checkSession } from './state/session.ts';
import './state/prefs.ts';
import { preloadPage } from './router/routes.tsx';

// who is signed in is asked while the dictionary and the page's code load: nothing waits for another
void checkSession();
preloadPage(location.hash);
void setLocale(initialLocale()).then(() => render(<App />, document.getElementById('app')!));
