// Pieces the TLS pages share (spec §3 "TLS (pew_tls)", §5, §9 update tick): the allowed client
// range with its all-addresses note, the minimum TLS version with the proposal of spec §3 ("1.2 or
// 1.3 for new setups", a warning while an older minimum is chosen), and the live state of a part
// (the `tls` entry of GET /config/service_status through web/state/tls-status.ts): one line on /tls, the block with its
// counters on the part's own page.
import { isAllAddresses } from '../../device/model/ip.ts';
import type { TlsPartStatus } from '../../device/model/tls-status.ts';
import { Field } from '../forms/field.tsx';
import { ReasonDetail, StateBadge, type StatusFact, StatusList, StatusPending } from '../forms/status-list.tsx';
import { formatNumber, LL, labelled } from '../i18n/translate.ts';
import { section } from '../state/sections.ts';
import { tlsPartState, tlsStatus, tlsStatusFailed } from '../state/tls-status.ts';

export const TLS_KEY = 'pew_tls';
/** the minimum versions spec §3 proposes for new setups */
const PROPOSED = ['1.2', '1.3'];

export function AccessRange({ on, ip1, ip2 }: { on: string; ip1: string; ip2: string }) {
  const m = section(TLS_KEY).temp.value;
  const a = m[ip1];
  const b = m[ip2];
  return (
    <>
      <Field section={TLS_KEY} path={on} />
      <Field section={TLS_KEY} path={ip1} />
      <Field section={TLS_KEY} path={ip2} />
      {typeof a === 'string' && typeof b === 'string' && isAllAddresses(a, b) && (
        <p class="note" data-note="all-addresses">
          {LL.value.port.allAddresses()}
        </p>
      )}
    </>
  );
}

export function MinVersion({ path }: { path: string }) {
  const old = !PROPOSED.includes(String(section(TLS_KEY).temp.value[path]));
  return (
    <>
      <Field section={TLS_KEY} path={path} />
      <p class={old ? 'banner warning note' : 'note'} data-note="tls-version" data-old={old || undefined}>
        {LL.value.tls.newSetups()}
      </p>
    </>
  );
}

type Part = 'client' | 'server';
const TONE = { listening: 'up', stopped: 'connecting', closed: 'down', disabled: '' } as const;

/** The part's state badge, with why it does not listen when the daemon says. */
function PartState({ s }: { s: TlsPartStatus }) {
  const state = tlsPartState(s);
  return (
    <>
      <StateBadge state={state} tone={TONE[state]}>
        {LL.value.tls.states[state]({ port: String(s.port) })}
      </StateBadge>
      {state === 'closed' && s.reason && <ReasonDetail reason={s.reason} />}
    </>
  );
}

/** One line for /tls: the part's state, or "status unavailable". */
export function PartStateLine({ part }: { part: Part }) {
  const s = tlsStatus.value?.[part];
  return (
    <div class="row" data-part-state={part}>
      {s ? (
        <p>
          <span class="sr">{labelled(LL.value.tls.state(), '')}</span>
          <PartState s={s} />
        </p>
      ) : (
        <StatusPending failed={tlsStatusFailed.value} />
      )}
    </div>
  );
}

const COUNTERS = ['connections', 'accepted', 'refused', 'tlsFailures', 'errors', 'bytesIn', 'bytesOut', 'faults'] as const;

/** The status block of a part's page: its state and its counters. */
export function PartStatusBlock({ part }: { part: Part }) {
  const t = LL.value.tls;
  const s = tlsStatus.value?.[part];
  const facts: StatusFact[] | null = s
    ? [{ item: 'state', label: t.state(), value: <PartState s={s} /> }, ...COUNTERS.map((k) => ({ item: k, label: t.stats[k](), value: formatNumber(s[k]) }))]
    : null;
  return <StatusList block={`tls-${part}-status`} title={t.status()} failed={tlsStatusFailed.value} facts={facts} />;
}
