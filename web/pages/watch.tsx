// /watch, the register watch (docs/monitor.md "Register watch"): the signed-in user's own list of PLC
// addresses (up to 32), edited and saved on the page itself (no configuration section: the page bar
// has no Save or Reset), checked with the daemon's own schema and rules. While the saved list is
// shown unchanged its values are read on every update tick (one request at a time; not while the
// list has unsaved changes, whose rows the values would not match), each with its trend of the last
// 5 minutes. Entries can be taken from the data logger's variables; the administrator writes a value
// after a question. Leaving the page with unsaved changes asks first.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { IssueParams } from '../../device/model/issues.ts';
import { WATCH_MAX, type WatchEntry } from '../../device/model/watch.ts';
import { ApiFailure, type ClientCode } from '../api/client.ts';
import { fetchWatchList, fetchWatchValues, saveWatchList } from '../api/watch.ts';
import { TableView } from '../forms/table-view.tsx';
import { errorText, LL } from '../i18n/translate.ts';
import { pageOf } from '../pages.ts';
import { setLeaveGuard } from '../router/hash.tsx';
import { confirmLeave } from '../shell/actions.ts';
import { keepFocus } from '../shell/focus.ts';
import { COM_STATUS_TICK_MS, poll } from '../state/com-status.ts';
import { ask } from '../state/confirm.ts';
import { notify, SAVED_MS } from '../state/notify.ts';
import { readOnly } from '../state/session.ts';
import css from '../styles/watch.css' with { type: 'text' };
import { nextEntry } from '../watch/list.ts';
import {
  accept,
  changed,
  draft,
  entries,
  issues,
  readFailed,
  readFailedNow,
  reading,
  saved,
  selected,
  serverIssues,
  setEntries,
  took,
} from '../watch/state.ts';
import { fieldLabel, WatchEditor } from './watch-editor.tsx';
import { WatchImport } from './watch-import.tsx';
import { WatchRow } from './watch-rows.tsx';

/** "Register watch, entry 2, Address" of a problem's path `entries.1.reg_addr`. */
function problemLine(i: { path: string; code: ClientCode; params?: IssueParams | undefined }): string {
  const L = LL.value;
  const [, n, field] = i.path.split('.');
  const place = [L.nav.watch(), ...(n === undefined ? [] : [L.form.place.entry({ n: Number(n) + 1 })]), ...(field ? [fieldLabel(field)] : [])].join(', ');
  return L.form.problem({ place, message: errorText(i.code, i.params) });
}

async function save(): Promise<void> {
  const L = LL.value;
  const refused = (lines: string[]) => notify('error', [L.form.notice.saveFailed(), ...lines].join('\n'));
  const own = issues.value;
  if (own.length) {
    selected.value = Number(own[0]!.path.split('.')[1] ?? 0);
    refused(own.map(problemLine));
    return;
  }
  try {
    accept(await saveWatchList(draft.value.entries));
    notify('info', L.watch.saved(), SAVED_MS);
  } catch (e) {
    const f = e instanceof ApiFailure ? e : new ApiFailure(0, 'internal');
    serverIssues.value = f.issues;
    const first = f.issues.find((i) => i.path.startsWith('entries.'));
    if (first) selected.value = Number(first.path.split('.')[1]);
    refused(f.issues.length ? f.issues.map(problemLine) : [errorText(f.code, f.params)]);
  }
  keepFocus();
}

/** While the page is open: leaving it (a link, Back) with unsaved changes of the list asks first, as the settings pages do. */
function useLeaveQuestion(): void {
  useEffect(() => {
    setLeaveGuard(async (from, to) => {
      if (changed.value && pageOf(from)?.id === 'watch' && pageOf(to)?.id !== 'watch') {
        const t = LL.value.confirm;
        if (!(await ask({ title: t.unsavedTitle(), text: t.unsavedLeave(), yes: t.leave(), no: t.stay() }))) return false;
      }
      return confirmLeave(from, to);
    });
    const onUnload = (e: BeforeUnloadEvent) => changed.value && e.preventDefault();
    addEventListener('beforeunload', onUnload);
    return () => {
      setLeaveGuard(confirmLeave);
      removeEventListener('beforeunload', onUnload);
    };
  }, []);
}

export default function WatchPage() {
  const L = LL.value;
  const t = L.watch;
  const [failed, setFailed] = useState<ClientCode | null>(null);
  const [importing, setImporting] = useState(false);
  const importButton = useRef<HTMLButtonElement>(null);
  useLeaveQuestion();

  useEffect(() => {
    saved.value = null;
    selected.value = null;
    fetchWatchList().then(accept, (e: unknown) => setFailed(e instanceof ApiFailure ? e.code : 'internal'));
  }, []);

  // the values of the saved list on every update tick, while it is shown without changes
  const list = saved.value;
  const live = list !== null && list.length > 0 && !changed.value;
  useEffect(() => {
    if (!live) return;
    const p = poll(fetchWatchValues, (r) => (r.ok ? took(r.value) : readFailedNow()), COM_STATUS_TICK_MS);
    return () => p.stop();
  }, [live, list]);

  if (failed)
    return (
      <div class="watch" data-page="watch">
        <p class="error" role="alert" data-note="load-failed">{`${t.loadFailed()} ${errorText(failed)}`}</p>
      </div>
    );
  if (list === null)
    return (
      <div class="watch" data-page="watch">
        <p class="loading" role="status">
          {L.shell.loading()}
        </p>
      </div>
    );

  const rows = entries();
  const full = rows.length >= WATCH_MAX;
  const invalid = new Set([...issues.value, ...serverIssues.value].map((i) => Number(i.path.split('.')[1])));
  const at = selected.value;
  const current = at !== null ? rows[at] : undefined;
  const values = reading.value?.values;
  const add = () => {
    if (full) return void notify('error', t.full({ max: WATCH_MAX }));
    setEntries([...rows, nextEntry(rows.at(-1))]);
    selected.value = rows.length;
  };
  const closeImport = () => {
    setImporting(false);
    importButton.current?.focus();
  };

  return (
    <div class="watch" data-page="watch">
      <style>{css as string}</style>
      <section class="card group" aria-labelledby="watch-title" data-list>
        <h2 id="watch-title">{t.title()}</h2>
        <p class="hint">{t.hint()}</p>
        <div class="row between">
          <span class="hint" data-count>
            {t.count({ count: rows.length, max: WATCH_MAX })}
          </span>
          <div class="row">
            <button type="button" class="btn small" data-action="add-entry" onClick={add}>
              {t.add()}
            </button>
            <button type="button" class="btn small" data-action="import" ref={importButton} aria-expanded={importing} onClick={() => setImporting(!importing)}>
              {t.import.open()}
            </button>
            <button type="button" class="btn small" data-action="discard" disabled={!changed.value} onClick={() => accept(list)}>
              {t.discard()}
            </button>
            <button type="button" class="btn primary" data-action="save-list" disabled={!changed.value} onClick={() => void save()}>
              {t.save()}
            </button>
          </div>
        </div>
        {full && (
          <p class="hint" data-note="full">
            {t.full({ max: WATCH_MAX })}
          </p>
        )}
        {changed.value && (
          <p class="hint" data-note="unsaved">
            {t.unsaved()}
          </p>
        )}
        {live && readFailed.value && (
          <p class="error" role="alert" data-note="unavailable">
            {t.unavailable()}
          </p>
        )}
        {rows.length === 0 ? (
          <p class="hint" data-note="empty">
            {t.none()}
          </p>
        ) : (
          <TableView labelledBy="watch-title">
            <table class="data-table watch-table" aria-busy={live && !reading.value && !readFailed.value ? 'true' : undefined}>
              <thead>
                <tr>
                  <th scope="col">{fieldLabel('name')}</th>
                  <th scope="col">{t.value()}</th>
                  <th scope="col">{t.trendColumn()}</th>
                  <th scope="col">{fieldLabel('reg_addr')}</th>
                  <th scope="col">{fieldLabel('type')}</th>
                  {!readOnly.value && <th scope="col">{t.write()}</th>}
                </tr>
              </thead>
              <tbody>
                {rows.map((e, i) => (
                  <WatchRow
                    key={i}
                    index={i}
                    entry={e}
                    invalid={invalid.has(i)}
                    live={live && list[i] ? { entry: list[i] as WatchEntry, r: values?.[i] } : undefined}
                  />
                ))}
              </tbody>
            </table>
          </TableView>
        )}
        {current && at !== null && <WatchEditor index={at} entry={current} />}
      </section>
      {importing && <WatchImport onClose={closeImport} />}
    </div>
  );
}
