// The live status block of /ftp (spec §2, §3 pew_ftpc and pew_script, §9 update tick 1500 ms;
// docs/ftp.md "Status" and "PLC control block"): whether the PLC's control block can be used, the
// send's state with the meaning of its error code, the next send of the transmission cycle, a
// waiting retry, and the last send. The `ftp` entry of GET /config/service_status through web/state/ftp-status.ts.
import type { FtpLastSend, FtpStatus } from '../../device/model/ftp-status.ts';
import { PlcReach, StateBadge, type StatusFact, StatusList } from '../forms/status-list.tsx';
import { formatDateTime, formatNumber, LL, labelled } from '../i18n/translate.ts';
import { ftpStatus, ftpStatusFailed, isFtpErrorCode } from '../state/ftp-status.ts';

const TONE = { idle: '', running: 'connecting', done: 'up', error: 'down' } as const;

/** "error code 2: nothing listens …" from the last send's error (the code's name when it is not known). */
function errorMeaning(e: NonNullable<FtpLastSend['error']>): string {
  const t = LL.value.ftpStatus;
  return labelled(t.code({ number: String(e.number) }), isFtpErrorCode(e.code) ? t.codes[e.code]() : e.code);
}

/** A count, with the names it counts after it. */
const named = (names: string[]) => (names.length ? `${formatNumber(names.length)} (${names.join(', ')})` : formatNumber(0));

function lastSendFacts(l: FtpLastSend): StatusFact[] {
  const t = LL.value.ftpStatus;
  return [
    { item: 'files', label: t.files(), value: named(l.files) },
    { item: 'bytes', label: t.bytes(), value: formatNumber(l.bytes) },
    { item: 'failed', label: t.failed(), value: formatNumber(l.failed) },
    { item: 'held', label: t.held(), value: named(l.held) },
    { item: 'deleted', label: t.deleted(), value: formatNumber(l.deleted) },
    // docs/ftp.md "No file is replaced": the name each one got on the server and here
    ...(l.renamed?.length ? [{ item: 'renamed', label: t.renamed(), value: l.renamed.map((r) => `${r.file} → ${r.remote} (${r.local})`).join(', ') }] : []),
    { item: 'attempts', label: t.attempts(), value: formatNumber(l.attempts) },
    ...(l.error
      ? [
          {
            item: 'error',
            label: t.error(),
            value: (
              <span class="error" data-code={l.error.code}>
                {l.error.message}
              </span>
            ),
          },
        ]
      : []),
  ];
}

function facts(s: FtpStatus): StatusFact[] {
  const t = LL.value.ftpStatus;
  const last = s.lastSend;
  const state: StatusFact = {
    item: 'state',
    label: t.state(),
    value: s.enabled ? (
      <>
        <StateBadge state={s.state} tone={TONE[s.state]}>
          {t.states[s.state]()}
        </StateBadge>
        {s.state === 'error' && last?.error && <span class="detail" data-meaning>{` ${errorMeaning(last.error)}`}</span>}
      </>
    ) : (
      <span data-state="off">{t.off()}</span>
    ),
  };
  if (!s.enabled) return [state];
  return [
    {
      item: 'plc',
      label: t.plc(),
      value: <PlcReach plc={s.plc} ok={t.plcOk()} down={t.plcDown()} />,
    },
    state,
    { item: 'local-dir', label: t.localDir(), value: s.localDir },
    { item: 'next-cycle', label: t.nextCycle(), value: s.cycle && s.nextCycle !== undefined ? formatDateTime(s.nextCycle) : t.noCycle() },
    { item: 'retry', label: t.retryAt(), value: s.retryAt !== undefined ? formatDateTime(s.retryAt) : t.noRetry() },
    {
      item: 'last-send',
      label: t.lastSend(),
      value: last ? `${formatDateTime(last.finished)} · ${t.triggers[last.trigger]()} · ${t.states[last.result]()}` : t.never(),
    },
    ...(last ? lastSendFacts(last) : []),
  ];
}

export function FtpStatusBlock() {
  const s = ftpStatus.value;
  return <StatusList block="ftp-status" title={LL.value.ftpStatus.title()} failed={ftpStatusFailed.value} facts={s ? facts(s) : null} />;
}
