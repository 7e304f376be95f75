// The live status block of a service the PLC drives (design/services.md "Status everywhere"; spec
// §2 service pages, §9 update tick 1500 ms): one component any service page mounts by the
// service's name. It shows the service's entry of the one status answer: the state and since when,
// whether the PLC's control block can be used, the last success, the last error with its code and
// meaning, the counters, the queue and its dead letters (with the admin's actions: dead-letters.tsx). The texts are the `serviceStatus` part of the dictionary.
import { useEffect } from 'preact/hooks';
import { DEAD_LETTER_SERVICES, type DeadLetterService } from '../../device/model/dead-letters.ts';
import type { StatusService } from '../../device/model/service-status.ts';
import type { ServiceStatus } from '../api/service-status.ts';
import { formatDateTime, formatNumber, LL, labelled, reasonText } from '../i18n/translate.ts';
import { RUN_STATE_TONE, serviceStatusOf, servicesStatusFailed, watchServicesStatus } from '../state/service-status.ts';
import { DeadLetterActions, deadLetterValue } from './dead-letters.tsx';
import { PlcReach, StateBadge, type StatusFact, StatusList } from './status-list.tsx';

type Texts = typeof LL.value.serviceStatus;

const isDeadLetterService = (s: StatusService): s is DeadLetterService => (DEAD_LETTER_SERVICES as readonly string[]).includes(s);

/** A counter's name in the console's language (a name the console does not know shows as it came). */
export function counterLabel(t: Texts, name: string): string {
  return name in t.counters ? t.counters[name as keyof Texts['counters']]() : name;
}

/** "error code 2: nothing listens …" (the meaning of the one classification, device/model/blocks/convention.ts). */
export function errorMeaning(t: Texts, e: NonNullable<ServiceStatus['lastError']>): string {
  return labelled(t.code({ number: String(e.number) }), t.codes[e.code]());
}

export function RunState({ s }: { s: ServiceStatus }) {
  return (
    <StateBadge state={s.state} tone={RUN_STATE_TONE[s.state]}>
      {LL.value.serviceStatus.states[s.state]()}
    </StateBadge>
  );
}

/** The Sparkplug B edge node beside the MQTT client (docs/sparkplug.md "Status"), while it is on: where its session stands, its bdSeq, seq and metrics. */
function sparkplugFacts(t: Texts, s: ServiceStatus): StatusFact[] {
  const p = s.sparkplug;
  if (!p?.enabled) return [];
  const detail = t.sparkplug.detail({ bdSeq: p.bdSeq ?? '–', seq: p.seq, metrics: p.metrics });
  return [
    {
      item: 'sparkplug',
      label: t.sparkplug.label(),
      value: (
        <>
          <span data-sparkplug-state={p.state}>{t.sparkplug.states[p.state]()}</span>
          <span class="detail">{` · ${detail}`}</span>
        </>
      ),
    },
  ];
}

function facts(s: ServiceStatus): StatusFact[] {
  const t = LL.value.serviceStatus;
  // dead letters stay on the unit while the service is off: they show either way, as the edge node does
  const dead: StatusFact[] = [
    ...sparkplugFacts(t, s),
    ...(s.deadLetters ? [{ item: 'dead-letters', label: t.deadLetters(), value: deadLetterValue(s.deadLetters) }] : []),
  ];
  if (!s.enabled) return [{ item: 'state', label: t.state(), value: <span data-state="off">{t.off()}</span> }, ...dead];
  const e = s.lastError;
  return [
    { item: 'state', label: t.state(), value: <RunState s={s} /> },
    { item: 'since', label: t.since(), value: formatDateTime(s.since) },
    {
      item: 'plc',
      label: t.plc(),
      value: <PlcReach plc={s.plc} ok={t.plcOk()} down={t.plcDown()} />,
    },
    { item: 'last-success', label: t.lastSuccess(), value: s.lastSuccess !== undefined ? formatDateTime(s.lastSuccess) : t.never() },
    {
      item: 'last-error',
      label: t.lastError(),
      value: e ? (
        <>
          <span data-meaning data-code={e.code}>
            {errorMeaning(t, e)}
          </span>
          <span class="detail" data-detail>{` · ${e.reason ? reasonText(e.reason) : e.message} · ${formatDateTime(e.at)}`}</span>
        </>
      ) : (
        t.none()
      ),
    },
    ...Object.entries(s.counters).map(([name, n]) => ({ item: `counter-${name}`, label: counterLabel(t, name), value: formatNumber(n) })),
    // a service without a queue (bound 0: the FTP send, the TLS bridge, the clock sync) shows none
    ...(s.queue.bound > 0
      ? [
          { item: 'queue', label: t.queue(), value: t.queueValue({ waiting: formatNumber(s.queue.waiting), bound: formatNumber(s.queue.bound) }) },
          { item: 'dropped', label: t.dropped(), value: formatNumber(s.queue.dropped) },
        ]
      : []),
    ...dead,
  ];
}

/**
 * The live status of `service` on its page; it asks the one status answer while it is shown.
 * `block` names it on a page that has a status block of that name already (/ftp: its send's detail).
 */
export function ServiceStatusBlock({ service, block = `${service}-status` }: { service: StatusService; block?: string }) {
  useEffect(() => watchServicesStatus(), []);
  const s = serviceStatusOf(service);
  return (
    <>
      <StatusList block={block} title={LL.value.serviceStatus.title()} failed={servicesStatusFailed.value} facts={s ? facts(s) : null} />
      {s && isDeadLetterService(service) && <DeadLetterActions service={service} s={s} />}
    </>
  );
}
