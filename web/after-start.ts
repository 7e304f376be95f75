// What the console does once its first render is done (web/main.tsx loads this module then, so the
// first load carries nothing of it): it drops the answers the page carried for a page the start did
// not open (old once that page opens: web/api/forget-start-answers.ts), and keeps the preferences
// cookie the daemon reads at the next load (web/state/prefs-cookie.ts).
import { forgetStartAnswers } from './api/forget-start-answers.ts';
import { keepPrefsCookie } from './state/prefs-cookie.ts';

forgetStartAnswers();
keepPrefsCookie();
