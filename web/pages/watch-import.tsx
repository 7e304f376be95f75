// "Import from the data logger" on /watch: the data points of the logger's saved log files, to tick
// (filtered by name) and add to the watch list as entries that read them as the logger does; as
// many as fit in the list's 32, with a message naming how many did not.
import { useEffect, useRef, useState } from 'preact/hooks';
import { INTERFACE_NAMES, type InterfaceId } from '../../device/model/plc.ts';
import { WATCH_MAX } from '../../device/model/watch.ts';
import { LL } from '../i18n/translate.ts';
import { pointAddress } from '../log/format.ts';
import { revealBelowHeader } from '../shell/focus.ts';
import { notify } from '../state/notify.ts';
import { loaded, section } from '../state/sections.ts';
import { filtered, loggerVariables, withPicked } from '../watch/list.ts';
import { entries, selected, setEntries } from '../watch/state.ts';
import { typeLabels } from './watch-editor.tsx';

export function WatchImport({ onClose }: { onClose: () => void }) {
  const t = LL.value.watch.import;
  const [filter, setFilter] = useState('');
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const heading = useRef<HTMLHeadingElement>(null);
  // opened: the panel comes into view and its heading takes the focus
  useEffect(() => {
    if (heading.current) revealBelowHeader(heading.current);
  }, [loaded.value]);
  if (!loaded.value)
    return (
      <p class="loading" role="status">
        {LL.value.shell.loading()}
      </p>
    );
  const all = loggerVariables(section('pew_log').saved.value);
  const shown = filtered(all, filter);
  const toggle = (key: string) => {
    const next = new Set(picked);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setPicked(next);
  };
  const add = () => {
    const list = entries();
    const chosen = all.filter((x) => picked.has(x.key)).map((x) => x.entry);
    const r = withPicked(list, chosen);
    if (r.added === 0) return void notify('error', LL.value.watch.full({ max: WATCH_MAX }));
    setEntries(r.list);
    selected.value = list.length;
    setPicked(new Set());
    if (r.added < chosen.length) notify('warning', t.partial({ added: r.added, picked: chosen.length, max: WATCH_MAX }));
    else notify('info', t.added({ count: r.added }));
    onClose();
  };
  return (
    <section class="card group watch-import" aria-labelledby="watch-import-title" data-import>
      <div class="row between">
        <h2 id="watch-import-title" tabIndex={-1} ref={heading}>
          {t.title()}
        </h2>
        <button type="button" class="btn small" data-action="close-import" onClick={onClose}>
          {t.close()}
        </button>
      </div>
      {all.length === 0 ? (
        <p class="hint" data-note="no-variables">
          {t.none()}
        </p>
      ) : (
        <>
          <div class="field">
            <label for="watch-import-filter">{t.filter()}</label>
            <div class="control">
              <input id="watch-import-filter" type="search" autoComplete="off" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
            </div>
          </div>
          {shown.length === 0 && (
            <p class="hint" data-note="no-match">
              {t.noMatch()}
            </p>
          )}
          <ul class="variables">
            {shown.map((x) => (
              <li key={x.key}>
                <label>
                  <input type="checkbox" data-variable={x.key} checked={picked.has(x.key)} onChange={() => toggle(x.key)} />
                  <span class="name">{x.entry.name}</span>
                  <span class="hint">
                    {[pointAddress(x.entry), typeLabels[String(x.entry.type)], INTERFACE_NAMES[x.entry.if as InterfaceId], t.file({ name: x.file })].join(
                      ' · ',
                    )}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <div class="row">
            <button type="button" class="btn primary" data-action="add-picked" disabled={picked.size === 0} onClick={add}>
              {t.add({ count: picked.size })}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
