// The Prometheus scrape token on /users (docs/monitoring.md), for administrators: whether GET
// /metrics is on and since when; Generate (the token shown this once, with the job to paste into
// prometheus.yml), Set own (checked with the daemon's schema), Clear after a question.
import { useEffect, useState } from 'preact/hooks';
import * as v from 'valibot';
import { type MetricsTokenStatus, metricsTokenSchema, scrapeConfig } from '../../device/model/metrics-token.ts';
import { toIssues } from '../../device/model/section.ts';
import { clearMetricsToken, metricsTokenStatus, setMetricsToken } from '../api/metrics-token.ts';
import { failureText } from '../forms/certificates.tsx';
import { errorText, formatDateTime, LL } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';

export function MetricsToken({ onChange }: { onChange: () => void }) {
  const [status, setStatus] = useState<MetricsTokenStatus | null>(null);
  const [shown, setShown] = useState('');
  const [own, setOwn] = useState<string | null>(null);
  const [error, setError] = useWorded();
  const [busy, setBusy] = useState(false);
  const t = LL.value.users.metrics;
  useEffect(() => {
    metricsTokenStatus().then(setStatus, (e: unknown) => setError((L) => L.users.failed({ reason: failureText('', e).trim() })));
  }, []);
  const act = async (call: () => Promise<MetricsTokenStatus>, done: string) => {
    setBusy(true);
    setError(null);
    try {
      const s = await call();
      setStatus(s);
      setShown(s.token ?? '');
      setOwn(null);
      notify('info', done);
      onChange();
    } catch (err) {
      setError(() => failureText('', err).trim());
    } finally {
      setBusy(false);
    }
  };
  const saveOwn = (e: Event) => {
    e.preventDefault();
    const checked = v.safeParse(metricsTokenSchema, own ?? '');
    if (!checked.success) {
      const first = toIssues(checked.issues)[0]!;
      return setError(() => errorText(first.code, first.params));
    }
    void act(() => setMetricsToken(checked.output), t.set());
  };
  const clear = async () => {
    if (await ask({ title: t.clearTitle(), text: t.clearText(), yes: t.clear(), no: LL.value.users.cancel() })) void act(clearMetricsToken, t.cleared());
  };
  const copy = (e: Event) => {
    const field = (e.currentTarget as HTMLElement).previousElementSibling as HTMLInputElement;
    field.select();
    if (navigator.clipboard) void navigator.clipboard.writeText(shown);
    else document.execCommand('copy');
  };
  return (
    <section class="card" aria-labelledby="metrics-title" data-block="metrics-token">
      <h2 id="metrics-title">{t.title()}</h2>
      <p>{t.intro()}</p>
      {status && (
        <p data-metrics-state={status.set ? 'on' : 'off'}>
          <span class="badge">{status.set ? t.on() : t.off()}</span> {status.since && t.since({ since: formatDateTime(status.since) })}
        </p>
      )}
      {shown && (
        <div class="metrics-new" data-metrics-new>
          <label for="metrics-shown">{t.shownOnce()}</label>
          <div class="row">
            <input id="metrics-shown" readOnly value={shown} spellcheck={false} />
            <button type="button" class="btn small" onClick={copy} data-action="copy-token">
              {t.copy()}
            </button>
          </div>
          <p>{t.job()}</p>
          <pre data-metrics-job>{scrapeConfig(location.host, location.protocol === 'https:')}</pre>
        </div>
      )}
      {own !== null && (
        <form onSubmit={saveOwn} noValidate data-form="metrics-own">
          <div class="field">
            <label for="metrics-own">{t.ownLabel()}</label>
            <div class="control">
              <input id="metrics-own" autocomplete="off" spellcheck={false} maxLength={256} value={own} onInput={(e) => setOwn(e.currentTarget.value)} />
            </div>
          </div>
          <div class="row">
            <button class="btn primary" type="submit" disabled={busy} data-action="save-own-token">
              {t.save()}
            </button>
            <button class="btn" type="button" onClick={() => setOwn(null)}>
              {LL.value.users.cancel()}
            </button>
          </div>
        </form>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {status && (
        <div class="row">
          <button type="button" class="btn" disabled={busy} onClick={() => void act(() => setMetricsToken(), t.set())} data-action="generate-token">
            {t.generate()}
          </button>
          <button type="button" class="btn" disabled={busy || own !== null} onClick={() => setOwn('')} data-action="own-token">
            {t.setOwn()}
          </button>
          {status.set && (
            <button type="button" class="btn danger" disabled={busy} onClick={() => void clear()} data-action="clear-token">
              {t.clear()}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
