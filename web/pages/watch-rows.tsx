// The rows of the watch table on /watch: each entry's name (a button to edit it), where it is read,
// its type, the value last read (or why it could not be read) and its trend, and for the
// administrator a value to write after a question naming the address and the value.
import { useState } from 'preact/hooks';
import { INTERFACE_NAMES, type InterfaceId } from '../../device/model/plc.ts';
import { STRING_TYPE } from '../../device/model/sections/logfile.ts';
import type { WatchEntry } from '../../device/model/watch.ts';
import { ApiFailure } from '../api/client.ts';
import { writeWatchValue } from '../api/watch.ts';
import { errorText, LL, reasonText } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { pointAddress } from '../log/format.ts';
import { ask } from '../state/confirm.ts';
import { readOnly } from '../state/session.ts';
import { failureReason, isNumeric, type Reading, valueText } from '../watch/format.ts';
import { type DraftEntry, readCount, selected, trends } from '../watch/state.ts';
import { numbersIn, trendKey } from '../watch/trends.ts';
import { typeLabels } from './watch-editor.tsx';
import { Sparkline } from './watch-spark.tsx';

const X_AREA = 4; // the inputs: never written

/** Where an entry is read: "DT40 on COM1", with the station when it has one. */
export function placeOf(e: DraftEntry): string {
  const t = LL.value.watch;
  const p = { address: pointAddress(e), interface: INTERFACE_NAMES[e.if as InterfaceId] ?? String(e.if) };
  return e.plc_addr ? t.atStation({ ...p, station: String(e.plc_addr) }) : t.at(p);
}

const typeText = (e: DraftEntry) => (e.type === STRING_TYPE ? `STRING[${e.str_len}]` : (typeLabels[String(e.type)] ?? String(e.type)));

/** Why a write was refused or failed, in the console's language. */
function writeFailure(e: unknown): string {
  if (!(e instanceof ApiFailure)) return errorText('internal');
  const at = e.issues.find((i) => i.path === 'value') ?? e.issues[0];
  if (at) return errorText(at.code, at.params);
  if (e.code === 'link_failed' && typeof e.params?.reason === 'string') {
    const code = typeof e.params.code === 'number' ? e.params.code : undefined;
    return `${errorText('link_failed')} ${reasonText(failureReason({ reason: e.params.reason, ...(code === undefined ? {} : { code }) }))}`;
  }
  return errorText(e.code, e.params);
}

function WriteCell({ index, entry }: { index: number; entry: WatchEntry }) {
  const t = LL.value.watch;
  const [text, setText] = useState('');
  const [problem, setProblem] = useWorded();
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  if (entry.area === X_AREA) return <span class="hint">{t.inputs()}</span>;
  const id = `watch-write-${index}`;
  const write = async () => {
    setProblem(null);
    setDone(false);
    if (text.trim() === '') return setProblem(() => errorText('required'));
    const yes = await ask({ title: t.writeTitle(), text: t.writeText({ value: text, at: placeOf(entry) }), yes: t.write(), no: LL.value.confirm.cancel() });
    if (!yes) return;
    setBusy(true);
    try {
      await writeWatchValue(index, text);
      setDone(true);
    } catch (e) {
      setProblem(() => writeFailure(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="write" data-write={index}>
      <div class="row">
        <input
          id={id}
          type="text"
          size={8}
          autoComplete="off"
          spellcheck={false}
          aria-label={t.writeLabel({ name: entry.name || placeOf(entry) })}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-err` : undefined}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Enter' && void write()}
        />
        <button type="button" class="btn small" data-action="write" disabled={busy} onClick={() => void write()}>
          {t.write()}
        </button>
      </div>
      {problem && (
        <p id={`${id}-err`} class="error" role="alert" data-write-error>
          {problem}
        </p>
      )}
      {done && (
        <p class="hint" role="status" data-written>
          {t.written()}
        </p>
      )}
    </div>
  );
}

function Value({ entry, r }: { entry: WatchEntry; r: Reading | undefined }) {
  if (!r) return null;
  if (r.failure)
    return (
      <span class="error" data-failure={r.failure.reason}>
        {reasonText(failureReason(r.failure))}
      </span>
    );
  return <span data-value>{valueText(entry, r, LL.value.app.dateLocale())}</span>;
}

/**
 * One row of the table. `live`: the saved entry at this place with its last reading (none while the
 * list has unsaved changes: the values belong to the saved list).
 */
export function WatchRow({
  index,
  entry,
  live,
  invalid,
}: {
  index: number;
  entry: DraftEntry;
  live?: { entry: WatchEntry; r: Reading | undefined };
  invalid: boolean;
}) {
  const t = LL.value.watch;
  const name = String(entry.name || pointAddress(entry));
  const key = live && isNumeric(live.entry) ? trendKey(live.entry) : undefined;
  const reads = readCount.value;
  return (
    <tr data-entry={index} aria-selected={selected.value === index} class={invalid ? 'invalid' : undefined}>
      <th scope="row">
        <button
          type="button"
          class="cell"
          data-action="edit-entry"
          aria-label={t.edit({ name })}
          title={invalid ? t.invalid() : undefined}
          onClick={() => {
            selected.value = index;
          }}
        >
          {invalid ? `${name} !` : name}
        </button>
      </th>
      <td class="value">{live ? <Value entry={live.entry} r={live.r} /> : '—'}</td>
      <td class="trend">{key && numbersIn(trends.get(key)) >= 2 && <Sparkline trend={key} reads={reads} label={t.trendOf({ name })} />}</td>
      <td>{placeOf(entry)}</td>
      <td>{typeText(entry)}</td>
      {!readOnly.value && <td>{live && <WriteCell key={trendKey(live.entry)} index={index} entry={live.entry} />}</td>}
    </tr>
  );
}
