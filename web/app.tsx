// Decides what the browser shows: the first-run page, the login page, or the console.
import { useEffect } from 'preact/hooks';
import { ErrorBoundary } from 'preact-iso/lazy';
import { LL } from './i18n/translate.ts';
import { HashLocationProvider, setLeaveGuard } from './router/hash.tsx';
import { page } from './router/routes.tsx';
import { confirmLeave } from './shell/actions.ts';
import { ConfirmDialog } from './shell/confirm-dialog.tsx';
import { Layout } from './shell/layout.tsx';
import { Notifications } from './shell/notifications.tsx';
import { reportUpdate } from './state/after-update.ts';
import { consoleData } from './state/console-data.ts';
import { anyUnsaved } from './state/service-edits.ts';
import { authState } from './state/session.ts';

setLeaveGuard(confirmLeave);
addEventListener('beforeunload', (e) => {
  if (anyUnsaved.value) e.preventDefault();
});

// only a browser that is not signed in needs these
const LoginPage = page(() => import('./pages/auth.tsx').then((m) => ({ default: m.LoginPage })));
const SetupPage = page(() => import('./pages/auth.tsx').then((m) => ({ default: m.SetupPage })));

function Console() {
  useEffect(() => {
    void consoleData(); // begun at start already when the browser was signed in (web/state/console-data.ts)
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
      <ConfirmDialog />
    </>
  );
}
