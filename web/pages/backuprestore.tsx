// /backuprestore (spec §2; §4 the warning that recommends a backup password; §5 backup password
// 8-32 characters with upper case, lower case, a digit and a special character, extension
// .i4csettings; §8 "Failed to retrieve the backup file", "Failed to restore the settings", "The
// password is not correct"): a backup with an optional password downloaded as a file, and a
// restore of such a file after a question. Only the administrator does either; the user role
// sees the page read-only. The rules shown live are the daemon's own (device/model/backup.ts).
import { useState } from 'preact/hooks';
import { BACKUP_EXTENSION, BACKUP_PASSWORD_MAX } from '../../device/model/backup.ts';
import { PASSWORD_MIN, passwordProblems } from '../../device/model/fields.ts';
import { fetchBackup, saveFile, sendRestore } from '../api/backup.ts';
import { ApiFailure, type ApiIssue } from '../api/client.ts';
import { fieldText } from '../i18n/field-text.ts';
import { errorText, LL, labelled } from '../i18n/translate.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { loadSections } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';

type Result = { ok: true; text: string } | { ok: false; text: string; issues: string[] };

/** The rules of spec §5, each with whether the password meets it. */
function rules(pw: string) {
  const t = LL.value.backup.rules;
  return [
    { ok: pw.length >= PASSWORD_MIN && pw.length <= BACKUP_PASSWORD_MAX, text: t.chars({ min: PASSWORD_MIN, max: BACKUP_PASSWORD_MAX }) },
    { ok: /[A-Z]/.test(pw), text: t.upper() },
    { ok: /[a-z]/.test(pw), text: t.lower() },
    { ok: /\d/.test(pw), text: t.digit() },
    { ok: /[^A-Za-z0-9]/.test(pw), text: t.special() },
  ];
}

const issueText = (i: ApiIssue) => labelled(`${i.section ?? ''}${i.path ? ` · ${fieldText(i.section ?? '', i.path).label}` : ''}`, errorText(i.code, i.params));

function failureText(e: unknown): { text: string; issues: string[] } {
  const t = LL.value.backup;
  if (!(e instanceof ApiFailure)) return { text: t.restoreFailed({ reason: errorText('internal') }), issues: [] };
  if (e.code === 'backup_wrong_password') return { text: errorText('backup_wrong_password'), issues: [] };
  if (e.code === 'restore_failed') {
    const reason = String(e.params?.reason ?? '');
    const reasons = t.reasons as unknown as Record<string, (() => string) | undefined>;
    return { text: t.restoreFailed({ reason: reasons[reason]?.() ?? reason }), issues: e.issues.map(issueText) };
  }
  return { text: t.restoreFailed({ reason: errorText(e.code, e.params) }), issues: [] };
}

function BackupCard() {
  const t = LL.value.backup;
  const [pw, setPw] = useState('');
  const [again, setAgain] = useState('');
  const [busy, setBusy] = useState(false);
  const list = rules(pw);
  const policyOk = pw === '' || !passwordProblems(pw, BACKUP_PASSWORD_MAX);
  const matches = pw === again;
  const disabled = readOnly.value || busy || !policyOk || !matches;

  async function download() {
    setBusy(true);
    try {
      const { name, blob } = await fetchBackup(pw || undefined);
      saveFile(name, blob);
      notify('info', t.backupDone({ name }));
    } catch (e) {
      const code = e instanceof ApiFailure ? e.code : 'internal';
      notify('error', t.backupFailed({ reason: errorText(code, e instanceof ApiFailure ? e.params : undefined) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card group" aria-labelledby="backup-title" data-backup>
      <h2 id="backup-title">{t.backupTitle()}</h2>
      <p class="hint">{t.backupIntro()}</p>
      <div class="grid">
        <div class={`field${policyOk ? '' : ' has-error'}`}>
          <label for="backup-password">{t.password()}</label>
          <div class="control">
            <input
              id="backup-password"
              type="password"
              autocomplete="new-password"
              maxLength={BACKUP_PASSWORD_MAX}
              value={pw}
              disabled={readOnly.value}
              onInput={(e) => setPw((e.target as HTMLInputElement).value)}
            />
          </div>
          <ul class="hint" data-password-rules aria-live="polite">
            {list.map((r) => (
              <li key={r.text} data-ok={String(r.ok)}>
                {r.ok ? '✓ ' : '✗ '}
                {r.text}
              </li>
            ))}
          </ul>
          {!policyOk && (
            <p class="error" role="alert">
              {errorText('password_policy', { min: PASSWORD_MIN, max: BACKUP_PASSWORD_MAX })}
            </p>
          )}
        </div>
        <div class={`field${matches ? '' : ' has-error'}`}>
          <label for="backup-password-again">{t.confirmPassword()}</label>
          <div class="control">
            <input
              id="backup-password-again"
              type="password"
              autocomplete="new-password"
              maxLength={BACKUP_PASSWORD_MAX}
              value={again}
              disabled={readOnly.value}
              onInput={(e) => setAgain((e.target as HTMLInputElement).value)}
            />
          </div>
          {!matches && (
            <p class="error" role="alert" data-mismatch>
              {t.mismatch()}
            </p>
          )}
        </div>
      </div>
      {pw === '' && (
        <p class="banner warning" role="status" data-no-password>
          {t.noPasswordWarning()}
        </p>
      )}
      <div class="row end">
        <button type="button" class="btn" data-action="backup" disabled={disabled} onClick={() => void download()}>
          {busy ? LL.value.shell.loading() : t.download()}
        </button>
      </div>
    </section>
  );
}

function RestoreCard() {
  const t = LL.value.backup;
  const [file, setFile] = useState<File | null>(null);
  const [pw, setPw] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const wrongType = file !== null && !file.name.toLowerCase().endsWith(BACKUP_EXTENSION);

  async function restore() {
    if (!file || wrongType) return;
    const yes = await ask({ title: t.confirmTitle(), text: t.confirmText({ name: file.name }), yes: t.restore(), no: LL.value.confirm.cancel() });
    if (!yes) return;
    setBusy(true);
    setResult(null);
    try {
      await sendRestore(file, pw);
      await loadSections(); // the console shows the restored settings
      setResult({ ok: true, text: t.restoreDone() });
      notify('info', t.restoreDone());
    } catch (e) {
      const f = failureText(e);
      setResult({ ok: false, ...f });
      notify('error', f.text);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="card group" aria-labelledby="restore-title" data-restore>
      <h2 id="restore-title">{t.restoreTitle()}</h2>
      <p class="hint">{t.restoreIntro()}</p>
      <div class="grid">
        <div class={`field${wrongType ? ' has-error' : ''}`}>
          <label for="restore-file">{t.file()}</label>
          <div class="control">
            <input
              id="restore-file"
              type="file"
              accept={BACKUP_EXTENSION}
              disabled={readOnly.value}
              onChange={(e) => {
                setFile((e.target as HTMLInputElement).files?.[0] ?? null);
                setResult(null);
              }}
            />
          </div>
          {wrongType && (
            <p class="error" role="alert">
              {t.wrongType({ ext: BACKUP_EXTENSION })}
            </p>
          )}
        </div>
        <div class="field">
          <label for="restore-password">{t.password()}</label>
          <div class="control">
            <input
              id="restore-password"
              type="password"
              autocomplete="off"
              maxLength={BACKUP_PASSWORD_MAX}
              value={pw}
              disabled={readOnly.value}
              onInput={(e) => setPw((e.target as HTMLInputElement).value)}
            />
          </div>
          <p class="hint">{t.restorePasswordHint()}</p>
        </div>
      </div>
      <div class="row end">
        <button type="button" class="btn" data-action="restore" disabled={readOnly.value || busy || !file || wrongType} onClick={() => void restore()}>
          {busy ? LL.value.shell.loading() : t.restore()}
        </button>
      </div>
      {result && (
        <div role={result.ok ? 'status' : 'alert'} data-restore-result={result.ok ? 'ok' : 'failed'}>
          <p class={result.ok ? 'hint' : 'error'}>{result.text}</p>
          {!result.ok && result.issues.length > 0 && (
            <ul class="error">
              {result.issues.map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}

export default function BackupRestorePage() {
  return (
    <div data-page="backuprestore">
      {readOnly.value && (
        <p class="banner warning" data-read-only>
          {LL.value.backup.readOnly()}
        </p>
      )}
      <BackupCard />
      <RestoreCard />
    </div>
  );
}
