// The live status block of a service page (spec §2 service pages, §9 update tick 1500 ms): a card
// with its title and a list of facts, "status unavailable" after a failed call, a busy note before
// the first answer. Used by /tlsclient, /tlsserver, /ftp, /script and the service status block
// (service-status.tsx); numbers and times in the console's locale (the dictionary's dateLocale, as
// /com and /datetime show them).
import type { ComponentChildren } from 'preact';
import type { StatusReason } from '../../device/model/reasons.ts';
import { LL, reasonText } from '../i18n/translate.ts';

export interface StatusFact {
  /** data-item of the row, for tests and styles */
  item: string;
  label: string;
  /** the label's id, where the value (a table in its scroll box) is named by it */
  labelId?: string;
  value: ComponentChildren;
}

/** A state badge: `tone` up (green), connecting (warning), down (error) or none (neutral). */
export function StateBadge({ state, tone, children }: { state: string; tone: 'up' | 'connecting' | 'down' | ''; children: ComponentChildren }) {
  return (
    <span class={`state ${tone}`} data-state={state}>
      {children}
    </span>
  );
}

/** Whether the unit reaches the PLC's control block: a badge, and the reason when it does not. */
export function PlcReach({ plc, ok, down }: { plc: StatusReason | undefined; ok: string; down: string }) {
  return plc === undefined ? (
    <StateBadge state="reachable" tone="up">
      {ok}
    </StateBadge>
  ) : (
    <>
      <StateBadge state="unreachable" tone="down">
        {down}
      </StateBadge>
      <ReasonDetail reason={plc} />
    </>
  );
}

/** Why something is not as it should be, in the console's language (the daemon sends a code: device/model/reasons.ts). */
export function ReasonDetail({ reason }: { reason: StatusReason }) {
  return (
    <span class="detail" data-detail data-reason={reason.code}>
      {` ${reasonText(reason)}`}
    </span>
  );
}

/** "status unavailable" after a failed call, a busy note before the first answer, else nothing. */
export function StatusPending({ failed }: { failed: boolean }) {
  return failed ? (
    <p class="hint" data-status="unavailable">
      {LL.value.com.unavailable()}
    </p>
  ) : (
    <p class="hint" data-status="none" aria-busy="true">
      {LL.value.shell.loading()}
    </p>
  );
}

/** The card; `facts` null while there is no answer (then StatusPending shows). */
export function StatusList({ block, title, failed, facts }: { block: string; title: string; failed: boolean; facts: StatusFact[] | null }) {
  const id = `${block}-title`;
  return (
    <section class="card group" aria-labelledby={id} data-block={block}>
      <h2 id={id}>{title}</h2>
      {failed || !facts ? (
        <StatusPending failed={failed} />
      ) : (
        <dl class="facts" data-status="ok">
          {facts.map((f) => (
            <div key={f.item} data-item={f.item}>
              <dt id={f.labelId}>{f.label}</dt>
              <dd>{f.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
