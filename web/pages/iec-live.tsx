// The live status of the IEC 60870-5-104 station at the top of /iec (spec §2 /iec, §9 update tick
// 1500 ms; docs/iec104.md "Status"): the `iec` entry of the one status answer through
// web/state/iec-status.ts. The station's run state, whether it listens (and why not), the last
// clock sync; per connection entry its control stations in a table that scrolls in its own box on
// a narrow screen, its event queue and its PLC side.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { IecClockSync, IecConnectionStatus, IecGroupStatus, IecListenerGroup, IecListenerStatus } from '../../device/model/iec-status.ts';
import { RunState } from '../forms/service-status.tsx';
import { ReasonDetail, StateBadge, StatusPending } from '../forms/status-list.tsx';
import { TableView } from '../forms/table-view.tsx';
import { formatDateTime, formatNumber, LL } from '../i18n/translate.ts';
import { iecEntry, iecStatusFailed, watchIecStatus } from '../state/iec-status.ts';

function Fact({ item, label, children }: { item: string; label: string; children: ComponentChildren }) {
  return (
    <div data-item={item}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function Listener({ l }: { l: IecListenerStatus | undefined }) {
  const t = LL.value.iec.live;
  if (l?.listening) {
    return (
      <StateBadge state="listening" tone="up">
        {t.listening({ port: String(l.port) })}
      </StateBadge>
    );
  }
  return (
    <>
      <StateBadge state="closed" tone="down">
        {t.notListening({ port: String(l?.port ?? '') })}
      </StateBadge>
      {l?.reason && <ReasonDetail reason={l.reason} />}
    </>
  );
}

function clockSyncText(c: IecClockSync): string {
  const t = LL.value.iec.live;
  return [formatDateTime(c.time), t.clockUnit[c.unit](), t.clockPlc[c.plc](), ...(c.error ? [c.error] : [])].join(' · ');
}

function Connections({ id, list }: { id: string; list: IecConnectionStatus[] }) {
  const t = LL.value.iec.live;
  if (list.length === 0) {
    return (
      <p class="hint" data-note="no-control-station">
        {t.noConnection()}
      </p>
    );
  }
  return (
    <TableView labelledBy={id}>
      <table class="data-table iec-connections">
        <thead>
          <tr>
            <th scope="col">{t.remote()}</th>
            <th scope="col">{t.state()}</th>
            <th scope="col">{t.transfer()}</th>
            <th scope="col">{t.framesIn()}</th>
            <th scope="col">{t.framesOut()}</th>
            <th scope="col">{t.unacknowledged()}</th>
            <th scope="col">{t.windowStalls()}</th>
            <th scope="col">{t.lastError()}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((c) => (
            <tr key={c.id} data-iec-conn={c.id}>
              <td data-remote>{c.remote}</td>
              <td data-link-state={c.state}>{t.linkStates[c.state]()}</td>
              <td data-active={c.active}>{c.active ? t.active() : t.standby()}</td>
              <td class="num">{formatNumber(c.framesIn)}</td>
              <td class="num">{formatNumber(c.framesOut)}</td>
              <td class="num">{formatNumber(c.unacknowledged)}</td>
              <td class="num" data-stalls>
                {formatNumber(c.windowStalls)}
              </td>
              <td>{c.lastError ? c.lastError.message : t.none()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableView>
  );
}

const PLC_TONE = { ok: 'up', silent: 'down', unknown: '' } as const;

function Group({ g, q }: { g: IecGroupStatus; q: IecListenerGroup | undefined }) {
  const t = LL.value.iec.live;
  const id = `iec-live-${g.index}`;
  const c = g.plc.commands;
  return (
    <section class="iec-live-group" aria-labelledby={id} data-iec-group={g.index}>
      <h3 id={id} class="sub">
        {LL.value.iec.connection({ n: g.index + 1 })}
      </h3>
      <Connections id={id} list={q?.connections ?? []} />
      <dl class="facts">
        {q && (
          <Fact item="queue" label={t.queue()}>
            {t.queueValue({
              queued: formatNumber(q.queued),
              overflowed: formatNumber(q.overflowed),
              sent: formatNumber(q.sent),
              acknowledged: formatNumber(q.acknowledged),
            })}
          </Fact>
        )}
        <Fact item="plc" label={t.plcSide()}>
          <StateBadge state={g.plc.plc} tone={PLC_TONE[g.plc.plc]}>
            {t.plcStates[g.plc.plc]()}
          </StateBadge>
          {g.plc.plc === 'silent' && g.plc.reason && <ReasonDetail reason={g.plc.reason} />}
        </Fact>
        {g.plc.ringError !== '' && (
          <Fact item="ring-error" label={t.ringError()}>
            <StateBadge state="fault" tone="down">
              {g.plc.ringError}
            </StateBadge>
          </Fact>
        )}
        <Fact item="events" label={t.events()}>
          {formatNumber(g.plc.events)}
        </Fact>
        <Fact item="commands" label={t.commands()}>
          {t.commandsValue({ accepted: formatNumber(c.accepted), refused: formatNumber(c.refused), done: formatNumber(c.done) })}
        </Fact>
      </dl>
    </section>
  );
}

export function IecLiveBlock() {
  useEffect(() => watchIecStatus(), []);
  const t = LL.value.iec.live;
  const st = LL.value.serviceStatus;
  const entry = iecEntry.value;
  const s = entry?.iec;
  return (
    <section class="card group iec-live" aria-labelledby="iec-live-title" data-block="iec-status">
      <h2 id="iec-live-title">{t.title()}</h2>
      {iecStatusFailed.value || !entry || !s ? (
        <StatusPending failed={iecStatusFailed.value} />
      ) : !s.enabled ? (
        <p class="hint" data-status="off">
          {t.off()}
        </p>
      ) : (
        <>
          <dl class="facts" data-status="ok">
            <Fact item="state" label={st.state()}>
              <RunState s={entry} />
            </Fact>
            <Fact item="listener" label={t.listener()}>
              <Listener l={s.listener} />
            </Fact>
            <Fact item="refused" label={st.counters.refused()}>
              {formatNumber(s.listener?.refused ?? 0)}
            </Fact>
            <Fact item="faults" label={st.counters.faults()}>
              {formatNumber(s.listener?.faults ?? 0)}
            </Fact>
            <Fact item="clock-syncs" label={st.counters.clockSyncs()}>
              {formatNumber(s.clockSyncs)}
            </Fact>
            <Fact item="clock-sync" label={t.clockSync()}>
              {s.lastClockSync ? clockSyncText(s.lastClockSync) : t.clockNone()}
            </Fact>
          </dl>
          {s.groups.map((g) => (
            <Group key={g.index} g={g} q={s.listener?.groups.find((q) => q.index === g.index)} />
          ))}
        </>
      )}
    </section>
  );
}
