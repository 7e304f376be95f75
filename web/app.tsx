// Decides what the browser shows: the first-run page, the login page, or the console.
import { effect } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { ErrorBoundary } from 'preact-iso/lazy';
import { LL, loadTexts } from './i18n/translate.ts';
import { HashLocationProvider, setBeforeMove, setLeaveGuard } from './router/hash.tsx';
import { page, pageReady, TEXTS } from './router/routes.tsx';
import { confirmLeave } from './shell/actions.ts';
import { Layout } from './shell/layout.tsx';
import { lazyModule } from './shell/lazy-module.ts';
import { Notifications } from './shell/notifications.tsx';
import { reportUpdate } from './state/after-update.ts';
import { question } from './state/confirm.ts';
import { consoleData, whenIdle } from './state/console-data.ts';
import { anyUnsaved } from './state/service-edits.ts';
import { authState } from './state/session.ts';

setLeaveGuard(confirmLeave);
setBeforeMove(pageReady);
addEventListener('beforeunload', (e) => {
  if (anyUnsaved.value) e.preventDefault();
});

/** The question dialog's code, loaded with the first question; a dialog that cannot be loaded answers no. */
const dialogModule = lazyModule(
  () => import('./shell/confirm-dialog.tsx'),
  'the question dialog',
  () => question.value?.resolve(false),
);
const dialog = dialogModule.loaded;
effect(() => {
  if (question.value) dialogModule.load();
});

// only a browser that is not signed in needs these
const LoginPage = page(() => import('./pages/auth.tsx').then((m) => ({ default: m.LoginPage })), ['auth', 'form', 'errors']);
const SetupPage = page(() => import('./pages/auth.tsx').then((m) => ({ default: m.SetupPage })), ['auth', 'form', 'errors']);

function Console() {
  useEffect(() => {
    // begun at start already when the browser was signed in (web/state/console-data.ts); then, when
    // the browser is idle, the texts the settings pages share, the messages of refused input and
    // failed requests among them, which the first page does not need: a move to such a page then
    // waits for the page's own chunk, not for a dozen parts of the dictionary besides
    void consoleData().then(() => whenIdle(() => loadTexts(TEXTS).catch((e: unknown) => console.error('loading the messages failed', e))));
    void reportUpdate(); // after a firmware update's reload: the version now running
  }, []);
  return (
    <HashLocationProvider>
      <Layout />
    </HashLocationProvider>
  );
}

export function App() {
  const state = authState.value;
  return (
    <>
      <Notifications />
      {state === 'loading' && (
        <p class="loading" role="status">
          {LL.value.shell.loading()}
        </p>
      )}
      <ErrorBoundary>
        {state === 'setup' && <SetupPage />}
        {state === 'login' && <LoginPage />}
      </ErrorBoundary>
      {state === 'ready' && <Console />}
      {dialog.value && <dialog.value.ConfirmDialog />}
    </>
  );
}
