// What the console's entry loads before anything shows, named in one place for the build: every lazy
// page imports this module (build/web.ts adds the import), so that esbuild puts these shared modules
// into one chunk with the entry instead of a chunk per set of pages that use them. Fewer, larger
// files compress better and cost the browser fewer requests and compile tasks at the first load.
// The entry imports it too, so that it is no empty chunk of its own.
import './app.tsx';
import './i18n/translate.ts';
import './state/session.ts';
import './state/prefs.ts';
import './state/console-data.ts';
import './router/routes.tsx';
// helpers of the first page (/info) that other pages share: else each is a tiny chunk of its own
import './api/audit.ts';
import './i18n/unit-values.ts';
