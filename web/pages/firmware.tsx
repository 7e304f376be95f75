// /firmware (spec §2; §4 upload → updating → rebooting, then the page refreshes itself, no cancel
// once started, failure probably caused by the 2-minute browser timeout with a retry refresh after
// about 90 s; §5 a .zip and an .md5 uploaded together, wrong type, name or size rejected, missing
// files reported, version compatibility; §8 update failed, some update files are missing; §9
// update tick 1500 ms). The chosen files are checked with the daemon's own rules
// (device/model/firmware.ts) before anything is sent; the daemon checks everything again.
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  BROWSER_TIMEOUT_MS,
  checkUpdateFiles,
  MD5_FILE_MAX,
  parseMd5File,
  RETRY_REFRESH_MS,
  UPDATE_TICK_MS,
  type UpdateRefusal,
  type UpdateStatus,
} from '../../device/model/firmware.ts';
import { MIN_VERSIONS } from '../../device/model/versions.ts';
import { ApiFailure } from '../api/client.ts';
import { probeUpdate, sendUpdate, updateStatus } from '../api/firmware.ts';
import { errorText, LL } from '../i18n/translate.ts';
import { rememberUpdate } from '../state/after-update.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { readOnly } from '../state/session.ts';

type Phase = 'select' | 'upload' | 'updating' | 'rebooting' | 'timeout';

/** The text of a refusal reason (`update_refused` params) in the user's language. */
export function refusalText(reason: string, params: Record<string, unknown> = {}): string {
  const r = LL.value.firmware.reasons;
  const p = (k: string) => String(params[k] ?? '');
  switch (reason as UpdateRefusal) {
    case 'missing_files':
      return r.missing_files();
    case 'file_type':
      return r.file_type();
    case 'file_name':
      return r.file_name();
    case 'too_large':
      return r.too_large({ max: Number(params.max ?? 0) });
    case 'md5':
      return r.md5();
    case 'archive':
      return r.archive({ problem: p('problem') });
    case 'signature':
      return r.signature();
    case 'content':
      return r.content({ file: p('file') });
    case 'older':
      return r.older({ version: p('version'), running: p('running') });
    case 'incompatible':
      return r.incompatible({ kind: p('kind').toUpperCase(), required: p('required'), installed: p('installed') });
    case 'busy':
      return r.busy();
    case 'unavailable':
      return r.unavailable();
    case 'start_failed':
      return r.start_failed();
    default:
      return errorText('update_refused');
  }
}

const failureOf = (e: unknown): string =>
  e instanceof ApiFailure && e.code === 'update_refused'
    ? refusalText(String(e.params?.reason ?? ''), e.params as Record<string, unknown>)
    : errorText(e instanceof ApiFailure ? e.code : 'internal');

export default function FirmwarePage() {
  const t = LL.value.firmware;
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [phase, setPhase] = useState<Phase>('select');
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [retryAt, setRetryAt] = useState(0);
  const [, tick] = useState(0);
  const timers = useRef<number[]>([]);

  useEffect(() => {
    updateStatus().then(setStatus, () => setStatus(null));
    return () => timers.current.forEach((id) => clearTimeout(id));
  }, []);

  const zip = files.find((f) => /\.zip$/i.test(f.name));
  const md5 = files.find((f) => /\.md5$/i.test(f.name));
  const others = files.filter((f) => f !== zip && f !== md5);
  const problem = files.length === 0 ? undefined : others.length ? { reason: 'file_type' as const } : checkUpdateFiles(zip, md5);
  const running = phase !== 'select' && phase !== 'timeout';

  /** Follows the update until the daemon answers again after its restart; then the page refreshes itself. */
  function follow(from: string, started: number) {
    const step = async () => {
      if (Date.now() - started > BROWSER_TIMEOUT_MS) {
        // spec §4, §8: probably the browser's 2-minute timeout; a retry refresh after about 90 s
        setPhase('timeout');
        setRetryAt(Date.now() + RETRY_REFRESH_MS);
        timers.current.push(window.setTimeout(() => location.reload(), RETRY_REFRESH_MS));
        timers.current.push(window.setInterval(() => tick((n) => n + 1), 1000));
        return;
      }
      const s = await probeUpdate();
      if (
        s === 'restarted' ||
        (typeof s === 'object' && s.version !== from) ||
        (typeof s === 'object' && s.last && s.last.at > new Date(started).toISOString())
      ) {
        rememberUpdate(from);
        location.reload();
        return;
      }
      if (typeof s === 'object') {
        if (s.state === 'failed') {
          setPhase('select');
          setError(refusalText(s.reason ?? 'start_failed'));
          setStatus(s);
          return;
        }
        setProgress(s.progress);
        if (s.state === 'rebooting') setPhase('rebooting');
      } else {
        setPhase('rebooting'); // the daemon is away: the unit restarts
      }
      timers.current.push(window.setTimeout(() => void step(), UPDATE_TICK_MS));
    };
    void step();
  }

  async function start() {
    if (!zip || !md5 || problem) return;
    const yes = await ask({ title: t.confirmTitle(), text: t.confirmText({ name: zip.name }), yes: t.start(), no: LL.value.confirm.cancel() });
    if (!yes) return;
    setError(null);
    const md5Text = await md5.slice(0, MD5_FILE_MAX).text();
    if (!parseMd5File(md5Text)) {
      setError(refusalText('md5'));
      return;
    }
    const from = status?.version ?? '';
    const started = Date.now();
    setPhase('upload');
    setProgress(0);
    try {
      await sendUpdate(zip, md5.name, md5Text);
    } catch (e) {
      setPhase('select');
      const text = failureOf(e);
      setError(text);
      notify('error', text);
      updateStatus().then(setStatus, () => undefined);
      return;
    }
    setPhase('updating');
    follow(from, started);
  }

  const states = ['upload', 'updating', 'rebooting'] as const;
  const last = status?.last;
  return (
    <div data-page="firmware">
      {readOnly.value && (
        <p class="banner warning" data-read-only>
          {t.readOnly()}
        </p>
      )}
      <section class="card group" aria-labelledby="firmware-title">
        <h2 id="firmware-title">{t.installTitle()}</h2>
        <p class="hint">{t.intro()}</p>
        {/* one row per fact, the label beside its value (a form grid would put both facts side by side) */}
        <dl class="facts" data-versions>
          <div>
            <dt>{t.running()}</dt>
            <dd data-running-version>{status?.version ?? '…'}</dd>
          </div>
          <div>
            <dt>{t.minimums()}</dt>
            <dd>{t.minimumsValue({ app: MIN_VERSIONS.app, bsp: MIN_VERSIONS.bsp, hmi: MIN_VERSIONS.hmi })}</dd>
          </div>
        </dl>
        {last && phase === 'select' && (
          <p class={last.ok ? 'banner info' : 'banner error'} role="status" data-last-install={last.ok ? 'ok' : 'failed'}>
            {last.ok ? t.lastOk({ version: last.version, from: last.from }) : t.lastFailed({ version: last.version, from: last.from })}
          </p>
        )}
        {/* said before anything is chosen or sent: without the supervisor no update can be installed */}
        {status?.available === false && (
          <p class="banner warning" role="status" data-unavailable>
            {LL.value.firmware.reasons.unavailable()}
          </p>
        )}
        <div class={`field${problem ? ' has-error' : ''}`}>
          <label for="firmware-files">{t.files()}</label>
          <div class="control">
            <input
              id="firmware-files"
              type="file"
              multiple
              accept=".zip,.md5"
              disabled={readOnly.value || running || status?.available === false}
              onChange={(e) => {
                setFiles([...((e.target as HTMLInputElement).files ?? [])]);
                setError(null);
              }}
            />
          </div>
          <p class="hint">{t.filesHint()}</p>
          {files.length > 0 && (
            <ul class="hint" data-chosen>
              {files.map((f) => (
                <li key={f.name}>
                  {f.name} ({f.size} B)
                </li>
              ))}
            </ul>
          )}
          {problem && (
            <p class="error" role="alert" data-file-problem={problem.reason}>
              {refusalText(problem.reason, problem.params)}
            </p>
          )}
        </div>
        <div class="row end">
          <button
            type="button"
            class="btn"
            data-action="update"
            disabled={readOnly.value || running || files.length === 0 || Boolean(problem) || status?.available === false}
            onClick={() => void start()}
          >
            {t.start()}
          </button>
        </div>
        {error && (
          <p class="error" role="alert" data-update-error>
            {t.refused({ reason: error })}
          </p>
        )}
      </section>
      {phase !== 'select' && (
        <section class="card group" aria-live="polite" data-update-phase={phase}>
          <h2>{t.progressTitle()}</h2>
          {phase === 'timeout' ? (
            <p class="error" role="alert" data-update-timeout>
              {t.timeout()} {t.retryIn({ seconds: Math.max(0, Math.ceil((retryAt - Date.now()) / 1000)) })}
            </p>
          ) : (
            <>
              <ol class="steps">
                {states.map((s) => (
                  <li key={s} data-step={s} aria-current={s === phase ? 'step' : undefined}>
                    {t.states[s]()}
                    {s === phase ? ' …' : ''}
                  </li>
                ))}
              </ol>
              {phase === 'updating' && <progress max={100} value={progress} />}
              <p class="banner warning">{t.noCancel()}</p>
            </>
          )}
        </section>
      )}
    </div>
  );
}
