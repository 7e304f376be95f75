// /health (docs/monitor.md "Health"): the unit over the last hour from `GET /config/health`, asked
// once per sample while the page is open (web/state/health.ts). Per running PLC link its busy share,
// requests, errors and timeouts per second; the free space of each mounted volume as a chart and as
// figures, with a warning below 10 % free (the data logger stops on low memory, spec §4); the
// logger's records per second; the daemon's CPU share of one core and its memory. Nothing here is a
// configuration section: the page has no save or reset.
import '../styles/chart-sheet.ts';
import { useEffect, useMemo } from 'preact/hooks';
import { ApiFailure } from '../api/client.ts';
import type { HealthAnswer } from '../api/health.ts';
import {
  daemonSeries,
  faultSeries,
  type HealthSeries,
  inUnit,
  lastHour,
  linkSeries,
  sizeUnit,
  storageUnit,
  type VolumeFigures,
  volumeFigures,
  volumeSeries,
  yRange,
} from '../graphs/health-series.ts';
import type { TranslationFunctions } from '../i18n/i18n-types.ts';
import { errorText, formatNumber, LL, labelled } from '../i18n/translate.ts';
import { health, healthFailed, watchHealth } from '../state/health.ts';
import css from '../styles/health.css' with { type: 'text' };
import { HealthChart, type Plot } from './health-chart.tsx';

/** a figure in the language's digits: two significant digits below 1, fewer decimals the larger it is */
const amount = (v: number) => formatNumber(v, v > 0 && v < 1 ? { maximumSignificantDigits: 2 } : { maximumFractionDigits: v >= 100 ? 0 : v >= 10 ? 1 : 2 });
const percent = (share: number) => formatNumber(share, { style: 'percent', maximumFractionDigits: 1 });

const named = (series: HealthSeries[], name: (key: string) => string) => series.map((s) => ({ ...s, name: name(s.key) }));

/** Every chart of the page for one answer, worded in the console's language. */
function plotsOf(answer: HealthAnswer, l: TranslationFunctions) {
  const t = l.health;
  const { samples } = answer;
  const view = lastHour(samples);
  const plot = (id: string, title: string, unit: string, series: Plot['series'], each: (v: number) => string, high = 0): Plot => ({
    id,
    title,
    unit,
    series,
    range: yRange(series, high),
    view,
    tick: amount,
    amount: each,
  });
  const rate = (v: number) => `${amount(v)}/s`;
  const inPercent = (v: number) => percent(v / 100);
  const link = (key: string) => key;
  const volumeName = (id: string) => (t.volumes as Record<string, (() => string) | undefined>)[id]?.() ?? id;
  const unit = storageUnit(samples);
  const daemon = daemonSeries(samples);
  const faults = faultSeries(samples).flatMap((f) => [
    { ...f.errors, name: t.errorsOf({ link: f.link }) },
    { ...f.timeouts, name: t.timeoutsOf({ link: f.link }), key: `${f.link} timeouts` },
  ]);
  const perSecond = t.units.perSecond();
  return {
    busy: plot('busy', t.busy(), '%', named(linkSeries(samples, 'busy'), link), inPercent, 100),
    requests: plot('requests', t.requests(), perSecond, named(linkSeries(samples, 'requests'), link), rate),
    faults: plot('faults', t.faults(), perSecond, faults, rate),
    storage: plot('storage', t.freeSpace(), t.units[unit](), named(volumeSeries(samples, unit), volumeName), (v) => t.amounts[unit]({ n: amount(v) })),
    records: plot('records', t.records(), perSecond, named(daemon.records, t.records), rate),
    cpu: plot('cpu', t.cpu(), '%', named(daemon.cpu, t.cpu), inPercent),
    memory: plot(
      'memory',
      t.memory(),
      t.units.mb(),
      named(daemon.memory, (k) => (k === 'rss' ? t.rss() : t.heap())),
      (v) => t.amounts.mb({ n: amount(v) }),
    ),
    volumeName,
  };
}

/** "Internal memory: 1.2 GB free of 3.9 GB (31%)", in GB for a volume of a GB or more; a volume low on space says so in words. */
function Volume({ v, name }: { v: VolumeFigures; name: string }) {
  const t = LL.value.health;
  const unit = sizeUnit(v.total);
  const size = (bytes: number) => t.amounts[unit]({ n: formatNumber(inUnit(bytes, unit), { maximumFractionDigits: 1 }) });
  return (
    <li data-volume={v.id} class={v.low ? 'low' : undefined}>
      <span data-figures>{labelled(name, t.free({ free: size(v.free), total: size(v.total), share: percent(v.share) }))}</span>
      {v.low && (
        <strong class="low-space" data-warning="low-space">
          {t.low()}
        </strong>
      )}
    </li>
  );
}

export default function HealthPage() {
  useEffect(() => watchHealth(), []);
  const t = LL.value.health;
  const answer = health.value;
  const failed = healthFailed.value;
  const plots = useMemo(() => (answer ? plotsOf(answer, LL.value) : undefined), [answer, LL.value]);
  const last = answer?.samples.at(-1);
  const seconds = answer ? formatNumber(answer.intervalMs / 1000, { maximumFractionDigits: 1 }) : '';
  return (
    <div class="health" data-page="health">
      <style>{css as string}</style>
      {failed !== null && (
        <p class="error" role="alert" data-error="update">
          {errorText(failed instanceof ApiFailure ? failed.code : 'connection_failed')}
        </p>
      )}
      {!answer && failed === null && (
        <p class="hint" aria-busy="true">
          {LL.value.shell.loading()}
        </p>
      )}
      {answer && <p class="hint intro">{t.intro({ seconds })}</p>}
      {answer && !last && (
        <p class="hint" data-note="waiting">
          {t.waiting({ seconds })}
        </p>
      )}
      {plots && last && (
        <>
          <section class="card">
            <h2 id="health-links">{t.links()}</h2>
            {plots.busy.series.length === 0 ? (
              <p class="hint" data-note="no-links">
                {t.noLinks()}
              </p>
            ) : (
              <div class="charts">
                <HealthChart plot={plots.busy} />
                <HealthChart plot={plots.requests} />
                <HealthChart plot={plots.faults} />
              </div>
            )}
          </section>
          <section class="card">
            <h2 id="health-storage">{t.storage()}</h2>
            <ul class="volumes" data-t={last.t}>
              {volumeFigures(last).map((v) => (
                <Volume key={v.id} v={v} name={plots.volumeName(v.id)} />
              ))}
            </ul>
            <HealthChart plot={plots.storage} />
          </section>
          <section class="card">
            <h2 id="health-logger">{t.dataLogger()}</h2>
            <HealthChart plot={plots.records} />
          </section>
          <section class="card">
            <h2 id="health-daemon">{t.daemon()}</h2>
            <div class="charts">
              <HealthChart plot={plots.cpu} />
              <HealthChart plot={plots.memory} />
            </div>
          </section>
        </>
      )}
    </div>
  );
}
