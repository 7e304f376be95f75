// What the console does once its first render is done (web/main.tsx loads this module then, so the
// first load carries nothing of it): it drops the answers the page carried for a page the start did
// not open (old once that page opens: web/api/forget-start-answers.ts), keeps the preferences
// cookie the daemon reads at the next load (web/state/prefs-cookie.ts), asks each later page's data
// with the move to it (web/api/ask-ahead.ts), and once the browser is idle preloads the other pages
// the daemon listed (web/api/idle-preloads.ts), then runs those pages' code, one page at a time
// (web/router/routes.tsx runPagesIdle). The checks of the settings are shown from then on
// (web/state/sections.ts startShownChecks).
import { askAheadOnMoves } from './api/ask-ahead.ts';
import { forgetStartAnswers } from './api/forget-start-answers.ts';
import { preloadIdle } from './api/idle-preloads.ts';
import { runPagesIdle } from './router/routes.tsx';
import { whenIdle } from './state/console-data.ts';
import { keepPrefsCookie } from './state/prefs-cookie.ts';
import { startShownChecks } from './state/sections.ts';

forgetStartAnswers();
askAheadOnMoves();
keepPrefsCookie();
whenIdle(startShownChecks);
whenIdle(() => preloadIdle(document, whenIdle, (routes) => runPagesIdle(routes, whenIdle)));
