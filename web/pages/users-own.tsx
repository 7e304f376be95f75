// The own password block of /users (spec §5 password rules; security.md SESS-1): every role changes
// its own password with the current one; the other sessions end and this browser goes on.
import { useState } from 'preact/hooks';
import * as v from 'valibot';
import { toIssues } from '../../device/model/section.ts';
import { passwordChangeSchema } from '../../device/model/users.ts';
import { changeOwnPassword } from '../api/users.ts';
import { failureText } from '../forms/certificates.tsx';
import { NewPassword, newPasswordReady } from '../forms/new-password.tsx';
import { errorText, LL, labelled } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { notify } from '../state/notify.ts';

export function OwnPassword() {
  const [current, setCurrent] = useState('');
  const [pw, setPw] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useWorded();
  const [busy, setBusy] = useState(false);
  const t = LL.value.users;
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    if (!current) return setError((L) => labelled(L.users.current(), errorText('required')));
    const checked = v.safeParse(passwordChangeSchema, { current, password: pw });
    if (!checked.success)
      return setError((L) => labelled(L.users.newPassword(), errorText(toIssues(checked.issues)[0]!.code, toIssues(checked.issues)[0]!.params)));
    if (pw !== confirm) return setError((L) => L.users.mismatch());
    setBusy(true);
    try {
      await changeOwnPassword(current, pw);
      setCurrent('');
      setPw('');
      setConfirm('');
      notify('info', t.ownChanged());
    } catch (err) {
      setError(() => failureText('', err).trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="own-title" data-block="own-password">
      <h2 id="own-title">{t.own()}</h2>
      <form onSubmit={submit} noValidate>
        <div class="field">
          <label for="own-current">{t.current()}</label>
          <div class="control">
            <input id="own-current" type="password" autocomplete="current-password" value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
          </div>
        </div>
        <NewPassword id="own" label={t.newPassword()} value={pw} confirm={confirm} onValue={setPw} onConfirm={setConfirm} />
        {error && (
          <p class="error row" role="alert">
            {error}
          </p>
        )}
        <div class="row">
          <button class="btn primary" type="submit" disabled={busy || !current || !newPasswordReady(pw, confirm)} data-action="change-own-password">
            {t.change()}
          </button>
        </div>
      </form>
    </section>
  );
}
