// The status part of /log (spec §3 Data logger, §4 "the write status can signal stop, error or low
// memory"; docs/logger.md): the logger's write state with its causes in the console's language, whether
// logging runs, per log file the records, missed slots, failed reads and the last record and
// trigger, and the notices the technician has not acknowledged yet: the files deleted for lack of
// space, by name, and the records dropped from a full write queue. The administrator acknowledges
// them (the status and the PLC's write-status registers show them until then).
// GET /config/log_status through web/state/log-status.ts.
import { ApiFailure } from '../api/client.ts';
import { acknowledgeLogNotices, type LogNotices, type LogStatus } from '../api/log-status.ts';
import { ReasonDetail, StateBadge, type StatusFact, StatusList } from '../forms/status-list.tsx';
import { TableView } from '../forms/table-view.tsx';
import { errorText, formatDateTime, formatNumber, LL } from '../i18n/translate.ts';
import { logStatus, logStatusFailed } from '../state/log-status.ts';
import { notify } from '../state/notify.ts';
import { readOnly } from '../state/session.ts';

/** the files fact's label, which names the table's scroll box */
const FILES_LABEL = 'log-status-files-label';
const TONE = { ok: 'up', low_memory: 'connecting', stopped: 'connecting', error: 'down' } as const;

async function acknowledge(): Promise<void> {
  try {
    logStatus.value = await acknowledgeLogNotices();
    notify('info', LL.value.logger.status.acknowledged());
  } catch (e) {
    notify('error', errorText(e instanceof ApiFailure ? e.code : 'internal'));
  }
}

function FilesTable({ files }: { files: LogStatus['files'] }) {
  const t = LL.value.logger.status;
  return (
    <TableView labelledBy={FILES_LABEL}>
      <table class="data-table log-status-files">
        <thead>
          <tr>
            <th>{t.file()}</th>
            <th>{t.records()}</th>
            <th>{t.missed()}</th>
            <th>{t.failedReads()}</th>
            <th>{t.lastRecord()}</th>
            <th>{t.lastTrigger()}</th>
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.name} data-log-file={f.name}>
              <td>{f.name}</td>
              <td data-col="records">{formatNumber(f.records)}</td>
              <td data-col="missed">{formatNumber(f.missed)}</td>
              <td data-col="failed-reads">{formatNumber(f.failedReads)}</td>
              <td data-col="last-record">{f.lastRecordAt !== undefined ? formatDateTime(f.lastRecordAt) : t.never()}</td>
              <td data-col="last-trigger">{f.lastTrigger > 0 ? formatDateTime(f.lastTrigger * 1000) : t.never()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableView>
  );
}

function Notices({ n }: { n: LogNotices }) {
  const t = LL.value.logger.status;
  const more = n.deletedCount - n.deleted.length;
  return (
    <div class="log-notices" data-notices>
      {n.deletedCount > 0 && (
        <div data-notice="deleted">
          <p class="warning">{t.deleted({ count: formatNumber(n.deletedCount) })}</p>
          <ul>
            {n.deleted.map((d) => (
              <li key={`${d.volume}/${d.name}/${d.at}`} data-deleted={d.name}>
                {t.deletedFile({ name: d.name, at: formatDateTime(d.at) })}
              </li>
            ))}
            {more > 0 && <li data-more>{t.deletedMore({ count: formatNumber(more) })}</li>}
          </ul>
        </div>
      )}
      {n.droppedCount > 0 && (
        <div data-notice="dropped">
          <p class="warning">{t.dropped({ count: formatNumber(n.droppedCount) })}</p>
          <ul>
            {Object.entries(n.dropped).map(([file, count]) => (
              <li key={file} data-dropped={file}>
                {t.droppedFile({ file, count: formatNumber(count) })}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p class="hint">{t.acknowledgeHint()}</p>
      <button type="button" class="btn small" data-action="acknowledge" disabled={readOnly.value} onClick={() => void acknowledge()}>
        {t.acknowledge()}
      </button>
    </div>
  );
}

/** The logger's write state with its causes: on /log and, with the other parts at work, on /info. */
export function LoggerWriteState({ write }: { write: LogStatus['write'] }) {
  return (
    <>
      <StateBadge state={write.state} tone={TONE[write.state]}>
        {LL.value.logger.status.states[write.state]()}
      </StateBadge>
      {write.reasons.map((r) => (
        <ReasonDetail key={r.code} reason={r} />
      ))}
    </>
  );
}

function facts(s: LogStatus): StatusFact[] {
  const t = LL.value.logger.status;
  if (!s.enabled) return [{ item: 'state', label: t.state(), value: <span data-state="off">{t.off()}</span> }];
  const n = s.notices;
  return [
    {
      item: 'state',
      label: t.state(),
      value: <LoggerWriteState write={s.write} />,
    },
    { item: 'running', label: t.running(), value: <span data-running={String(s.running)}>{s.running ? t.runs() : t.notRunning()}</span> },
    ...(n.deletedCount > 0 || n.droppedCount > 0 ? [{ item: 'notices', label: t.notices(), value: <Notices n={n} /> }] : []),
    ...(s.files.length > 0 ? [{ item: 'files', label: t.files(), labelId: FILES_LABEL, value: <FilesTable files={s.files} /> }] : []),
  ];
}

export function LogStatusBlock() {
  const s = logStatus.value;
  return <StatusList block="log-status" title={LL.value.logger.status.title()} failed={logStatusFailed.value} facts={s ? facts(s) : null} />;
}
