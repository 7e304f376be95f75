// The first-run page that creates the administrator, and the login page (spec §6; security.md).
import { useState } from 'preact/hooks';
import * as v from 'valibot';
import { toIssues } from '../../device/model/section.ts';
import { setupSchema } from '../../device/model/users.ts';
import { ApiFailure } from '../api/client.ts';
import { errorText, LL, labelled } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { useDocumentTitle } from '../shell/document-title.ts';
import { createAdmin, login, loginReason } from '../state/session.ts';
import css from '../styles/auth.css' with { type: 'text' };

function failureText(e: unknown): string {
  if (!(e instanceof ApiFailure)) return errorText('internal');
  if (e.code === 'locked') return LL.value.auth.locked({ minutes: Math.ceil(Number(e.params?.retryAfterSeconds ?? 60) / 60) });
  const first = e.issues[0];
  return first ? errorText(first.code, first.params) : errorText(e.code, e.params);
}

function Frame(props: { title: string; intro?: string; children: preact.ComponentChildren }) {
  useDocumentTitle(props.title);
  return (
    <main class="auth" aria-labelledby="auth-title">
      <style>{css as string}</style>
      <div class="card">
        <p class="brand">{LL.value.app.title()}</p>
        <h1 id="auth-title">{props.title}</h1>
        {props.intro && <p>{props.intro}</p>}
        {props.children}
      </div>
    </main>
  );
}

export function LoginPage() {
  const [user, setUser] = useState('');
  const [pw, setPw] = useState('');
  const [error, setError] = useWorded();
  const [busy, setBusy] = useState(false);
  const t = LL.value.auth;
  const submit = async (e: Event) => {
    e.preventDefault();
    // spec §5: user name and/or password are required at login
    if (!user || !pw) return setError((L) => L.auth.required());
    setBusy(true);
    try {
      await login(user, pw);
    } catch (err) {
      setError(() => failureText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Frame title={t.loginTitle()} intro={loginReason.value === 'session_expired' ? t.expired() : undefined}>
      <form onSubmit={submit} noValidate>
        <label for="login-user">{t.username()}</label>
        <input id="login-user" autocomplete="username" value={user} onInput={(e) => setUser(e.currentTarget.value)} />
        <label for="login-pw">{t.password()}</label>
        <input id="login-pw" type="password" autocomplete="current-password" value={pw} onInput={(e) => setPw(e.currentTarget.value)} />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button class="btn primary" type="submit" disabled={busy}>
          {t.login()}
        </button>
      </form>
    </Frame>
  );
}

export function SetupPage() {
  const [user, setUser] = useState('admin');
  const [pw, setPw] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useWorded();
  const [busy, setBusy] = useState(false);
  const t = LL.value.auth;
  const submit = async (e: Event) => {
    e.preventDefault();
    // the same schema the daemon checks the request with
    const checked = v.safeParse(setupSchema, { username: user, password: pw });
    if (!checked.success) {
      const first = toIssues(checked.issues)[0]!;
      return setError((L) => labelled(first.path === 'username' ? L.auth.username() : L.auth.password(), errorText(first.code, first.params)));
    }
    if (pw !== repeat) return setError((L) => L.auth.mismatch());
    setBusy(true);
    try {
      await createAdmin(user, pw);
    } catch (err) {
      setError(() => failureText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Frame title={t.setupTitle()} intro={t.setupIntro()}>
      <form onSubmit={submit} noValidate>
        <label for="setup-user">{t.username()}</label>
        <input id="setup-user" autocomplete="username" value={user} onInput={(e) => setUser(e.currentTarget.value)} />
        <label for="setup-pw">{t.password()}</label>
        <input
          id="setup-pw"
          type="password"
          autocomplete="new-password"
          aria-describedby="setup-rule"
          value={pw}
          onInput={(e) => setPw(e.currentTarget.value)}
        />
        <small id="setup-rule">{t.passwordRule()}</small>
        <label for="setup-repeat">{t.repeat()}</label>
        <input id="setup-repeat" type="password" autocomplete="new-password" value={repeat} onInput={(e) => setRepeat(e.currentTarget.value)} />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button class="btn primary" type="submit" disabled={busy}>
          {t.create()}
        </button>
      </form>
    </Frame>
  );
}
