// The data points of the /sql and /db pages (spec §3 "SQL and NoSQL data points", §5, §8 "Max.
// number of data points reached", §9 datalist 100): where they are read (insert without PLC,
// interface, station), a table of the points, and one point at a time edited with the
// schema-bound fields below it. Both pages share it; the section key picks pew_sql or pew_nosql.
import { useState } from 'preact/hooks';
import { INTERFACE_NAMES } from '../../device/model/plc.ts';
import { type DataPoint, MAX_DATAPOINTS } from '../../device/model/sections/datapoint.ts';
import { errorText, LL } from '../i18n/translate.ts';
import { getPath } from '../state/equal.ts';
import { notify } from '../state/notify.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import css from '../styles/datalist.css' with { type: 'text' };
import { addPoint, pointAddress, removePoint } from './datalist-edit.ts';
import { Field, FieldGroup, FieldView, problemAt } from './field.tsx';

type DbKey = 'pew_sql' | 'pew_nosql';

const interfaceLabels = Object.fromEntries(Object.entries(INTERFACE_NAMES)) as Record<string, string>;

function Row({ k, j, p, selected, invalid, onSelect }: { k: DbKey; j: number; p: DataPoint; selected: boolean; invalid: boolean; onSelect: () => void }) {
  const t = LL.value.fields.datapoints;
  const endian = (LL.value.fields[k].datalist.endian.options as Record<string, (() => string) | undefined>)[p.endian];
  const scal = p.enable_scal ? `${p.scale_plc_min} – ${p.scale_plc_max} → ${p.scale_log_min} – ${p.scale_log_max}` : t.scaleOff();
  return (
    <tr data-point={j} aria-selected={selected} class={invalid ? 'invalid' : undefined} onClick={onSelect}>
      <td>
        <button
          type="button"
          class="cell"
          data-action="edit-point"
          aria-label={t.edit({ n: j + 1 })}
          title={invalid ? t.invalid() : undefined}
          onClick={(e) => {
            e.stopPropagation();
            onSelect();
          }}
        >
          {invalid ? `${j + 1} !` : j + 1}
        </button>
      </td>
      <td title={String(p.name)}>{String(p.name)}</td>
      <td>{pointAddress(p)}</td>
      <td>{String(p.type)}</td>
      <td>{String(p.decimal)}</td>
      <td>{endian ? endian() : String(p.endian)}</td>
      <td>{String(p.unit)}</td>
      <td>{scal}</td>
    </tr>
  );
}

const SCALING = ['scale_plc_min', 'scale_plc_max', 'scale_log_min', 'scale_log_max'];

/** The fields of point `j`: the bit only for a BOOL, the scaling ends only with scaling on (or while wrong). */
function Editor({ k, j, p, onRemove }: { k: DbKey; j: number; p: DataPoint; onRemove: () => void }) {
  const t = LL.value.fields.datapoints;
  const at = `datalist.${j}`;
  const paths = ['name', 'area', 'address', 'bit', 'type', 'decimal', 'endian', 'unit', 'enable_scal', ...SCALING].filter(
    (f) => (f === 'bit' ? p.type === 'BOOL' : !SCALING.includes(f) || p.enable_scal) || problemAt(k, `${at}.${f}`) !== undefined,
  );
  return (
    <div class="point-editor" data-point-editor={j}>
      <div class="row between">
        <h3>{t.editTitle({ n: j + 1, name: String(p.name) })}</h3>
        <button type="button" class="btn small" data-action="remove-point" disabled={readOnly.value} onClick={onRemove}>
          {t.remove()}
        </button>
      </div>
      <div class="grid">
        {paths.map((f) => {
          const path = `${at}.${f}`;
          // the scaling ends take any safe number: a range line would tell nothing
          return SCALING.includes(f) ? (
            <FieldView
              key={f}
              section={k}
              path={path}
              value={getPath(section(k).temp.value, path)}
              problem={problemAt(k, path)}
              bare
              onChange={(v) => setField(k, path, v)}
            />
          ) : (
            <Field key={f} section={k} path={path} />
          );
        })}
      </div>
    </div>
  );
}

/** The "Data points" group of a database page. */
export function DataList({ k }: { k: DbKey }) {
  const t = LL.value.fields.datapoints;
  const f = LL.value.fields[k].datalist;
  const s = section(k);
  const points = (s.temp.value.datalist ?? []) as DataPoint[];
  const n = points.length;
  const [chosen, setChosen] = useState<number | null>(null);
  const selected = chosen !== null && chosen < n ? chosen : null;
  const issues = s.shownValidation.value.issues;
  const invalidRows = new Set(
    issues
      .map((i) => /^datalist\.(\d+)\./.exec(i.path))
      .filter(Boolean)
      .map((m) => Number(m![1])),
  );
  const listProblem = problemAt(k, 'datalist');

  const add = () => {
    const next = addPoint(points);
    if (next === 'full') return void notify('error', t.maxReached()); // spec §8
    setField(k, 'datalist', next);
    setChosen(n);
  };
  const remove = (j: number) => {
    setField(k, 'datalist', removePoint(points, j));
    setChosen(n - 1 === 0 ? null : Math.min(j, n - 2));
  };

  return (
    <FieldGroup title={f.label()} id={`${k}-points`}>
      <style>{css as string}</style>
      <Field section={k} path="insertWithoutPLC" />
      <Field section={k} path="interface" optionLabels={interfaceLabels} />
      <Field section={k} path="plc_addr" />
      <div class="datalist" data-points>
        <div class="row between">
          <span class="hint" data-counts>
            {t.count({ count: n, max: MAX_DATAPOINTS })}
          </span>
          <button type="button" class="btn small" data-action="add-point" disabled={readOnly.value} onClick={add}>
            {t.add()}
          </button>
        </div>
        {n >= MAX_DATAPOINTS && (
          <p class="hint" data-max>
            {t.maxReached()}
          </p>
        )}
        {listProblem && (
          <p class="error" role="alert" data-list-error>
            {errorText(listProblem.code, listProblem.params)}
          </p>
        )}
        {n === 0 ? (
          <p class="hint" data-empty>
            {t.none()}
          </p>
        ) : (
          <div class="points-view">
            <table class="points">
              <thead>
                <tr>
                  <th>{t.no()}</th>
                  <th>{f.name.label()}</th>
                  <th>{f.address.label()}</th>
                  <th>{f.type.label()}</th>
                  <th>{f.decimal.label()}</th>
                  <th>{f.endian.label()}</th>
                  <th>{f.unit.label()}</th>
                  <th>{f.enable_scal.label()}</th>
                </tr>
              </thead>
              <tbody>
                {points.map((p, j) => (
                  <Row key={j} k={k} j={j} p={p} selected={selected === j} invalid={invalidRows.has(j)} onSelect={() => setChosen(j)} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {selected !== null && <Editor k={k} j={selected} p={points[selected]!} onRemove={() => remove(selected)} />}
      </div>
    </FieldGroup>
  );
}
