// The fields of one watch entry on /watch: the shared FieldView bound to the watch list's schema
// (kind, limits and messages as the daemon checks them), labelled as the data logger's point fields
// on /log are; editable in both roles, since the list is the user's own.
import { INTERFACE_NAMES } from '../../device/model/plc.ts';
import { LOG_AREAS, LOG_TYPES, STRING_TYPE } from '../../device/model/sections/logfile.ts';
import { watchListSchema } from '../../device/model/watch.ts';
import { FieldView } from '../forms/field.tsx';
import { LL } from '../i18n/translate.ts';
import { type DraftEntry, entries, problemAt, selected, setEntries, setField } from '../watch/state.ts';

export const FIELDS = ['name', 'if', 'plc_addr', 'area', 'reg_addr', 'type', 'str_len', 'endian', 'decimal', 'format'] as const;
type Field = (typeof FIELDS)[number];

export const typeLabels: Record<string, string> = Object.fromEntries(LOG_TYPES.map((n, i) => [String(i), n.toUpperCase()]));
const OPTION_LABELS: Partial<Record<Field, Record<string, string>>> = { if: INTERFACE_NAMES, area: LOG_AREAS, type: typeLabels };

/** The label of an entry's field, in the console's language. */
export function fieldLabel(f: string): string {
  const L = LL.value;
  if (f === 'format') return L.watch.display.label();
  const leaf = (L.logger.pointFields as unknown as Record<string, { label: () => string } | undefined>)[f];
  return leaf ? leaf.label() : f;
}

function help(f: Field): string {
  const L = LL.value;
  if (f === 'plc_addr') return L.watch.station();
  if (f === 'reg_addr' || f === 'str_len') return L.logger.pointFields[f].help();
  return '';
}

function optionLabels(f: Field): Record<string, string> | undefined {
  if (f === 'endian' || f === 'format') {
    const o = f === 'endian' ? LL.value.logger.pointFields.endian.options : LL.value.watch.display.options;
    return Object.fromEntries(Object.entries(o).map(([k, fn]) => [k, (fn as () => string)()]));
  }
  return OPTION_LABELS[f];
}

export function WatchEditor({ index, entry }: { index: number; entry: DraftEntry }) {
  const t = LL.value.watch;
  const remove = () => {
    const list = entries().filter((_, j) => j !== index);
    setEntries(list);
    selected.value = list.length ? Math.min(index, list.length - 1) : null;
  };
  return (
    <div class="point-editor" data-entry-editor={index}>
      <div class="row between">
        <h3 id="watch-editor-title">{t.editTitle({ n: index + 1, name: String(entry.name ?? '') })}</h3>
        <button type="button" class="btn small" data-action="remove-entry" onClick={remove}>
          {t.remove()}
        </button>
      </div>
      <div class="grid">
        {FIELDS.filter((f) => f !== 'str_len' || entry.type === STRING_TYPE).map((f) => {
          const path = `entries.${index}.${f}`;
          return (
            <FieldView
              key={f}
              section="watch"
              schema={watchListSchema}
              editable
              path={path}
              value={entry[f]}
              problem={problemAt(path)}
              label={fieldLabel(f)}
              help={help(f)}
              optionLabels={optionLabels(f)}
              onChange={(v) => setField(path, v)}
            />
          );
        })}
      </div>
    </div>
  );
}
