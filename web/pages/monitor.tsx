// /monitor, the traffic monitor (docs/monitor.md): start and stop the unit's one capture of a PLC
// link, a port or the IEC 104 station, and watch its records arrive on the update tick, decoded in
// the user's language (web/pages/monitor-words.ts), filtered by direction, command and errors;
// Pause, Clear and the text and pcap downloads. Administrators and users may capture. Nothing here
// is a configuration section: the page has no Save or Reset.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import * as v from 'valibot';
import {
  CAPTURE_LEVELS,
  CAPTURE_MINUTES_DEFAULT,
  CAPTURE_MINUTES_MAX,
  type CaptureLevel,
  type MonitorAnswer,
  type MonitorRecord,
  monitorQuery,
  monitorStartRequest,
} from '../../device/model/monitor.ts';
import { toIssues } from '../../device/model/section.ts';
import { ApiFailure, mode } from '../api/client.ts';
import { apiUrl } from '../api/mode.ts';
import { downloadPath, startCapture, stopCapture } from '../api/monitor.ts';
import { parseNumber } from '../forms/field.tsx';
import { StateBadge, StatusPending } from '../forms/status-list.tsx';
import type { TranslationFunctions } from '../i18n/i18n-types.ts';
import { errorText, formatDateTime, formatNumber, formatValue, LL, labelled } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import {
  captureChanged,
  clearMonitor,
  KEPT_MAX,
  type MonitorFilters,
  monitorAnswer,
  monitorClearedAt,
  monitorFailed,
  monitorFilters,
  monitorLost,
  monitorPaused,
  monitorRecords,
  pauseMonitor,
  setMonitorFilters,
  watchMonitor,
} from '../state/monitor.ts';
import css from '../styles/monitor.css' with { type: 'text' };
import { isBad, recordText, sourceName } from './monitor-words.ts';

type Texts = TranslationFunctions['monitor'];
type Sources = MonitorAnswer['sources'];

/** The time of day as formatDateTime writes it (its last 8 characters: hh:mm:ss), to the minute or with milliseconds. */
function timeOfDay(at: number, ms = false): string {
  const hms = formatDateTime(at).slice(-8);
  return ms ? `${hms}${formatNumber(0.5).charAt(1)}${String(at % 1000).padStart(3, '0')}` : hms.slice(0, 5);
}

/** A refused request as the field it names and its message ("Minutes: Value out of range (1 – 60)."). */
function refusalText(L: TranslationFunctions, e: unknown): string {
  const f = e instanceof ApiFailure ? e : new ApiFailure(0, 'internal');
  const i = f.issues[0];
  if (!i) return errorText(f.code, f.params);
  const t = L.monitor;
  const field = i.path.startsWith('sources') ? t.source() : i.path === 'level' ? t.level() : i.path === 'minutes' ? t.minutes() : '';
  return field ? labelled(field, errorText(i.code, i.params)) : errorText(i.code, i.params);
}

function CaptureState({ t, a }: { t: Texts; a: Omit<MonitorAnswer, 'records'> | null }) {
  if (!a || monitorFailed.value) return <StatusPending failed={monitorFailed.value} />;
  const c = a.capture;
  const sources = c.sources.map((id) => sourceName(t, id, a.sources)).join(', ');
  const state = c.on ? 'on' : (c.ended ?? 'off');
  const text = c.on ? t.on({ sources, until: c.until === undefined ? '' : timeOfDay(c.until), by: c.by ?? '' }) : c.ended ? t[c.ended]({ sources }) : t.off();
  return (
    <p role="status" data-capture={state}>
      {text}
    </p>
  );
}

function CaptureCard({ t, source, onSource }: { t: Texts; source: string; onSource: (s: string) => void }) {
  const a = monitorAnswer.value;
  const sources = a?.sources ?? [];
  const [level, setLevel] = useState<CaptureLevel>('frames');
  const [minutes, setMinutes] = useState(String(CAPTURE_MINUTES_DEFAULT));
  const [error, setError] = useWorded();
  const [busy, setBusy] = useState(false);
  const run = async (call: () => ReturnType<typeof stopCapture>) => {
    setBusy(true);
    try {
      captureChanged(await call());
    } catch (e) {
      setError((L) => refusalText(L, e));
    } finally {
      setBusy(false);
    }
  };
  const start = (e: Event) => {
    e.preventDefault();
    setError(null);
    // the same check as the unit's (device/model/monitor.ts), so a wrong value is named before anything is sent
    const checked = v.safeParse(monitorStartRequest, { sources: source ? [source] : [], level, minutes: parseNumber(minutes) });
    if (!checked.success) {
      const [issue] = toIssues(checked.issues);
      return setError((L) => refusalText(L, new ApiFailure(400, 'invalid_input', issue ? [issue] : [])));
    }
    void run(() => startCapture(checked.output));
  };
  return (
    <section class="card" aria-labelledby="monitor-capture" data-block="capture">
      <h2 id="monitor-capture">{t.capture()}</h2>
      <CaptureState t={t} a={a} />
      {a && sources.length === 0 && (
        <p class="hint" data-note="no-sources">
          {t.noSources()}
        </p>
      )}
      <form onSubmit={start} noValidate data-form="capture">
        <div class="grid">
          <div class="field">
            <label for="monitor-source">{t.source()}</label>
            <div class="control">
              <select id="monitor-source" value={source} onChange={(e) => onSource(e.currentTarget.value)}>
                {sources.map((s) => (
                  <option key={s.id} value={s.id}>
                    {sourceName(t, s.id, sources)}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div class="field">
            <label for="monitor-level">{t.level()}</label>
            <div class="control">
              <select id="monitor-level" value={level} onChange={(e) => setLevel(e.currentTarget.value as CaptureLevel)}>
                {CAPTURE_LEVELS.map((l) => (
                  <option key={l} value={l}>
                    {t.levels[l]()}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div class="field">
            <label for="monitor-minutes">{t.minutes()}</label>
            <div class="control">
              <input
                id="monitor-minutes"
                type="text"
                inputMode="numeric"
                value={minutes}
                aria-describedby="monitor-minutes-help"
                onInput={(e) => setMinutes(e.currentTarget.value)}
              />
            </div>
            <small id="monitor-minutes-help" class="hint">
              {LL.value.form.range({ min: '1', max: formatValue(CAPTURE_MINUTES_MAX) })}
            </small>
          </div>
        </div>
        {error && (
          <p class="error" role="alert" data-error="capture">
            {error}
          </p>
        )}
        <div class="row">
          <button type="submit" class="btn primary" data-action="start" disabled={busy || !a}>
            {t.start()}
          </button>
          <button type="button" class="btn" data-action="stop" disabled={busy || !a?.capture.on} onClick={() => void run(stopCapture)}>
            {t.stop()}
          </button>
          <span class="hint">{t.startNote()}</span>
        </div>
      </form>
    </section>
  );
}

function Filters({ t }: { t: Texts }) {
  const f = monitorFilters.value;
  const [command, setCommand] = useState(f.command);
  const [error, setError] = useWorded();
  const apply = (next: MonitorFilters) => setMonitorFilters(next);
  // checked as the unit checks it; a malformed command is named and nothing is asked for
  const applyCommand = () => {
    const text = command.trim();
    const checked = text ? v.safeParse(monitorQuery, { command: text }) : undefined;
    if (checked && !checked.success) {
      const [issue] = toIssues(checked.issues);
      return setError((L) => labelled(L.monitor.command(), errorText(issue?.code ?? 'invalid_characters')));
    }
    setError(null);
    if (text !== f.command) apply({ ...f, command: text });
  };
  return (
    <form
      class="grid"
      noValidate
      data-form="filters"
      onSubmit={(e) => {
        e.preventDefault();
        applyCommand();
      }}
    >
      <div class="field">
        <label for="monitor-dir">{t.dir()}</label>
        <div class="control">
          <select id="monitor-dir" value={f.dir} onChange={(e) => apply({ ...f, dir: e.currentTarget.value as MonitorFilters['dir'] })}>
            <option value="">{t.dirs.all()}</option>
            <option value="in">{t.dirs.in()}</option>
            <option value="out">{t.dirs.out()}</option>
          </select>
        </div>
      </div>
      <div class={`field${error ? ' has-error' : ''}`}>
        <label for="monitor-command">{t.command()}</label>
        <div class="control">
          <input
            id="monitor-command"
            type="text"
            autoComplete="off"
            spellcheck={false}
            value={command}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'monitor-command-err monitor-command-help' : 'monitor-command-help'}
            onInput={(e) => setCommand(e.currentTarget.value)}
            onChange={applyCommand}
          />
        </div>
        <small id="monitor-command-help" class="hint">
          {t.commandHint()}
        </small>
        {error && (
          <p id="monitor-command-err" class="error" role="alert" data-error="command">
            {error}
          </p>
        )}
      </div>
      <div class="field check">
        <label for="monitor-errors">{t.errorsOnly()}</label>
        <div class="control">
          <input id="monitor-errors" type="checkbox" checked={f.errors} onChange={(e) => apply({ ...f, errors: e.currentTarget.checked })} />
        </div>
      </div>
    </form>
  );
}

function Row({ t, r, sources }: { t: Texts; r: MonitorRecord; sources: Sources }) {
  const d = r.decoded;
  const bad = isBad(r);
  return (
    <li
      class={bad ? 'bad' : undefined}
      data-seq={r.seq}
      data-kind={r.kind}
      data-source={r.source}
      data-dir={r.dir}
      data-event={r.event}
      data-what={d?.what}
      data-command={d?.command}
    >
      <time dateTime={new Date(r.t).toISOString()}>{timeOfDay(r.t, true)}</time>
      <span class="src">{sourceName(t, r.source, sources)}</span>
      {r.dir && (
        <span class="dir">
          <span aria-hidden="true">{r.dir === 'out' ? '→' : '←'}</span>
          <span class="sr">{r.dir === 'out' ? t.sent() : t.received()}</span>
        </span>
      )}
      {r.peer && <span class="peer">{r.peer}</span>}
      {d?.command && <code class="cmd">{d.command}</code>}
      <span class="what">
        {bad && (
          <StateBadge state="bad" tone="down">
            {t.bad()}
          </StateBadge>
        )}{' '}
        {recordText(t, r)}
      </span>
      {d?.station !== undefined && (
        <span class="peer">
          {t.station({ s: d.station })}
          {d.id !== undefined && ` #${d.id}`}
        </span>
      )}
      {r.rttMs !== undefined && (
        <span class="rtt" data-rtt={r.rttMs}>
          <span class="sr">{t.rtt()} </span>
          {formatValue(r.rttMs)} ms
        </span>
      )}
      {r.text !== undefined && <code class="raw">{r.text}</code>}
      {r.hex !== undefined && <code class="raw">{r.hex}</code>}
    </li>
  );
}

function RecordList({ t, sources }: { t: Texts; sources: Sources }) {
  const records = monitorRecords.value;
  const box = useRef<HTMLOListElement>(null);
  // the list follows the newest record while it is scrolled to its end, and stays where the reader scrolled to otherwise
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    const b = box.current;
    if (b && atEnd.current) b.scrollTop = b.scrollHeight;
  }, [records]);
  if (records.length === 0) {
    return (
      <p class="hint" data-note="empty">
        {t.empty()}
      </p>
    );
  }
  return (
    <ol
      class="monitor-list"
      ref={box}
      tabIndex={0}
      aria-labelledby="monitor-records"
      onScroll={(e) => {
        const b = e.currentTarget;
        atEnd.current = b.scrollTop + b.clientHeight >= b.scrollHeight - 8;
      }}
    >
      {records.map((r) => (
        <Row key={r.seq} t={t} r={r} sources={sources} />
      ))}
    </ol>
  );
}

function RecordsCard({ t, source }: { t: Texts; source: string }) {
  const sources = monitorAnswer.value?.sources ?? [];
  const paused = monitorPaused.value;
  const lost = monitorLost.value;
  const href = (format: 'text' | 'pcap') => apiUrl(mode.value, downloadPath(format, monitorClearedAt.value, source));
  return (
    <section class="card" aria-labelledby="monitor-records" data-block="records">
      <h2 id="monitor-records">{t.records()}</h2>
      <Filters t={t} />
      <div class="row">
        <button type="button" class="btn" data-action="pause" aria-pressed={paused} onClick={() => pauseMonitor(!paused)}>
          {paused ? t.resume() : t.pause()}
        </button>
        <button type="button" class="btn" data-action="clear" onClick={clearMonitor}>
          {t.clear()}
        </button>
        <a class="btn" href={href('text')} download="capture.txt" data-download="text">
          {t.downloadText()}
        </a>
        <a class="btn" href={href('pcap')} download="capture.pcap" data-download="pcap">
          {t.downloadPcap()}
        </a>
      </div>
      {paused && (
        <p class="hint" data-note="paused">
          {t.paused()}
        </p>
      )}
      {lost > 0 && (
        <p class="error" data-note="lost">
          {t.lost({ count: lost })}
        </p>
      )}
      <p class="hint">{t.kept({ max: formatNumber(KEPT_MAX) })}</p>
      <RecordList t={t} sources={sources} />
    </section>
  );
}

export default function MonitorPage() {
  useEffect(() => watchMonitor(), []);
  const t = LL.value.monitor;
  const a = monitorAnswer.value;
  const [chosen, setChosen] = useState('');
  // the chosen source, else the one captured last, else the first the unit has
  const ids = (a?.sources ?? []).map((s) => s.id);
  const source = ids.includes(chosen) ? chosen : (a?.capture.sources.find((s) => ids.includes(s)) ?? ids[0] ?? '');
  return (
    <div class="monitor" data-page="monitor">
      <style>{css as string}</style>
      <CaptureCard t={t} source={source} onSource={setChosen} />
      <RecordsCard t={t} source={source} />
    </div>
  );
}
