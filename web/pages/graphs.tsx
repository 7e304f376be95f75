// /graphs (spec §2 graph page, §3 graph types, §8, §9 Logger): choose one or several log files of
// any volume; each gets a graph of its own (web/pages/graphs-chart.tsx), fetched through the
// download route and read by web/graphs/csv-trend.ts. A file over 10 MB is refused (spec §9), a
// file without data lines shows the message of spec §8. Nothing here is a configuration section:
// the page has no save or reset.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ClientCode } from '../api/client.ts';
import { ApiFailure } from '../api/client.ts';
import { parseTrend, TREND_MAX_BYTES, type Trend } from '../graphs/csv-trend.ts';
import { downloadLogFile, fetchLogVolumes, type LogFileEntry, type LogVolume, STORAGE_URL_NAMES, type Storage } from '../graphs/log-files.ts';
import { CHART_TYPES, type ChartType } from '../graphs/series.ts';
import { formatOneDecimal } from '../i18n/plain-decimal.ts';
import { errorText, LL } from '../i18n/translate.ts';
import { EARLY_WAIT_MS } from '../state/com-status.ts';
import '../styles/chart-sheet.ts';
import css from '../styles/graphs.css' with { type: 'text' };
import { TrendChart } from './graphs-chart.tsx';

// the page's styles come with its chunk (the console's stylesheet holds the shell's only)
if (typeof document !== 'undefined' && !document.getElementById('graphs-css')) {
  const style = document.createElement('style');
  style.id = 'graphs-css';
  style.textContent = css as string;
  document.head.append(style);
}

/**
 * The list of the files, asked for before each visit's first render (made by the page's `ready`,
 * web/router/routes.tsx), so that the first render shows it (as the status pages do: earlyInto in
 * web/state/com-status.ts); taken by the page's first render when less than EARLY_WAIT_MS old, or
 * asked again by it when it did not come within EARLY_WAIT_MS or failed.
 */
let earlyVolumes: { at: number; volumes: LogVolume[] } | undefined;
export async function early(): Promise<void> {
  earlyVolumes = await Promise.race([
    fetchLogVolumes().then(
      (volumes) => ({ at: Date.now(), volumes }),
      () => undefined,
    ),
    new Promise<undefined>((r) => setTimeout(r, EARLY_WAIT_MS)),
  ]);
}

/** A chosen file: `<storage>/<name>`. */
type Key = `${Storage}/${string}`;
const keyOf = (storage: Storage, name: string): Key => `${storage}/${name}`;

type Loaded =
  | { state: 'loading' }
  | { state: 'ready'; trend: Trend }
  | { state: 'too_large'; bytes: number }
  | { state: 'invalid' }
  | { state: 'failed'; code: ClientCode };

/** A size in KB or MB with one decimal (without Intl in the three languages: web/i18n/plain-decimal.ts). */
const oneDecimal = (n: number): string =>
  formatOneDecimal(n, LL.value.app.dateLocale()) ?? new Intl.NumberFormat(LL.value.app.dateLocale(), { maximumFractionDigits: 1 }).format(n);

const TYPE_NAMES = ['line', 'bar', 'stacked'] as const; // spec §3: line 0, bar 1, stacked 2
const MB = 1024 * 1024;

async function load(storage: Storage, file: LogFileEntry): Promise<Loaded> {
  // the list already tells the size: a file past the limit is not even fetched
  if (file.size > TREND_MAX_BYTES) return { state: 'too_large', bytes: file.size };
  try {
    const got = await downloadLogFile(storage, file.name);
    if (!got.ok) return { state: 'too_large', bytes: got.bytes };
    const parsed = parseTrend(got.bytes);
    if (parsed.ok) return { state: 'ready', trend: parsed.trend };
    return parsed.error === 'too_large' ? { state: 'too_large', bytes: parsed.bytes } : { state: 'invalid' };
  } catch (e) {
    return { state: 'failed', code: e instanceof ApiFailure ? e.code : 'connection_failed' };
  }
}

function FileList({ volume, chosen, onToggle }: { volume: LogVolume; chosen: readonly Key[]; onToggle: (storage: Storage, f: LogFileEntry) => void }) {
  const t = LL.value.graphs;
  return (
    <fieldset data-storage={volume.storage}>
      <legend>{t.storages[STORAGE_URL_NAMES[volume.storage]]()}</legend>
      {!volume.mounted ? (
        <p class="hint" data-note="not-mounted">
          {t.notMounted()}
        </p>
      ) : volume.files.length === 0 ? (
        <p class="hint" data-note="no-files">
          {t.noFiles()}
        </p>
      ) : (
        <ul class="files">
          {volume.files.map((f) => {
            const key = keyOf(volume.storage, f.name);
            return (
              <li key={f.name}>
                <label>
                  <input type="checkbox" data-file={key} checked={chosen.includes(key)} onChange={() => onToggle(volume.storage, f)} />
                  <span class="name">{f.name}</span>
                  <span class="size">{t.size({ kb: oneDecimal(f.size / 1024) })}</span>
                </label>
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}

function GraphCard({ id, loaded, type }: { id: Key; loaded: Loaded; type: ChartType }) {
  const t = LL.value.graphs;
  const [storage, ...rest] = id.split('/');
  const name = rest.join('/');
  return (
    <section class="card graph" data-graph={id} data-state={loaded.state} aria-label={name}>
      <header>
        <h2>{name}</h2>
        <span class="hint">{t.storages[STORAGE_URL_NAMES[Number(storage) as Storage]]()}</span>
      </header>
      {loaded.state === 'loading' && (
        <p class="hint" aria-busy="true">
          {t.loading()}
        </p>
      )}
      {loaded.state === 'too_large' && (
        <p class="error" role="alert" data-error="too_large">
          {t.tooLarge({ size: oneDecimal(loaded.bytes / MB), max: oneDecimal(TREND_MAX_BYTES / MB) })}
        </p>
      )}
      {loaded.state === 'invalid' && (
        <p class="error" role="alert" data-error="invalid_format">
          {t.invalidFormat()}
        </p>
      )}
      {loaded.state === 'failed' && <p class="error" role="alert" data-error={loaded.code}>{`${t.readFailed()} ${errorText(loaded.code)}`}</p>}
      {loaded.state === 'ready' && <TrendChart title={name} trend={loaded.trend} type={type} />}
    </section>
  );
}

/** a touch screen is the main pointer (a phone, a tablet): the zoom help speaks of fingers, not of Ctrl and the wheel */
const touchFirst = () => typeof matchMedia === 'function' && matchMedia('(pointer: coarse)').matches;

export default function GraphsPage() {
  const t = LL.value.graphs;
  const [volumes, setVolumes] = useState<LogVolume[] | undefined>(() => {
    const early = earlyVolumes;
    earlyVolumes = undefined;
    return early && Date.now() - early.at < EARLY_WAIT_MS ? early.volumes : undefined;
  });
  const [listError, setListError] = useState<ClientCode | undefined>();
  const [chosen, setChosen] = useState<Key[]>([]);
  const [loaded, setLoaded] = useState<Partial<Record<Key, Loaded>>>({});
  const [type, setType] = useState<ChartType>(0);
  const alive = useRef(true);

  const refresh = () => {
    setListError(undefined);
    fetchLogVolumes().then(
      (v) => {
        if (alive.current) setVolumes(v);
      },
      (e: unknown) => {
        if (alive.current) setListError(e instanceof ApiFailure ? e.code : 'connection_failed');
      },
    );
  };
  useEffect(() => {
    if (!volumes) refresh();
    return () => {
      alive.current = false;
    };
  }, []);

  const toggle = (storage: Storage, file: LogFileEntry) => {
    const key = keyOf(storage, file.name);
    if (chosen.includes(key)) {
      setChosen(chosen.filter((k) => k !== key));
      setLoaded((l) => {
        const { [key]: _, ...rest } = l;
        return rest;
      });
      return;
    }
    setChosen([...chosen, key]);
    setLoaded((l) => ({ ...l, [key]: { state: 'loading' } }));
    void load(storage, file).then((result) => {
      // a file taken off the page meanwhile stays off
      if (alive.current) setLoaded((l) => (key in l ? { ...l, [key]: result } : l));
    });
  };

  return (
    <div class="graphs" data-page="graphs">
      <p class="hint intro">
        {t.intro()} <span data-note="zoom">{touchFirst() ? t.zoomTouch() : t.zoomMouse()}</span>
      </p>
      <section class="card" aria-labelledby="graphs-files">
        <div class="row between">
          <h2 id="graphs-files">{t.files()}</h2>
          <button type="button" class="btn small" data-action="refresh" onClick={refresh}>
            {t.refresh()}
          </button>
        </div>
        {listError && <p class="error" role="alert" data-error="list">{`${t.readFailed()} ${errorText(listError)}`}</p>}
        {!volumes && !listError && (
          <p class="hint" aria-busy="true">
            {t.loading()}
          </p>
        )}
        {volumes && (
          <div class="choose">
            {volumes.map((v) => (
              <FileList key={v.storage} volume={v} chosen={chosen} onToggle={toggle} />
            ))}
          </div>
        )}
        <div class="row controls">
          <label for="graphs-type">{t.chartType()}</label>
          <select id="graphs-type" data-control="chart-type" value={String(type)} onChange={(e) => setType(Number(e.currentTarget.value) as ChartType)}>
            {CHART_TYPES.map((c) => (
              <option key={c} value={String(c)}>
                {t.types[TYPE_NAMES[c]]()}
              </option>
            ))}
          </select>
        </div>
      </section>
      {chosen.length === 0 && (
        <p class="card hint" data-note="none">
          {t.none()}
        </p>
      )}
      {chosen.map((k) => (
        <GraphCard key={k} id={k} loaded={loaded[k] ?? { state: 'loading' }} type={type} />
      ))}
    </div>
  );
}
