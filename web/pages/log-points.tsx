// /log data points of the selected log file (spec §3 "Data point (record)", §4 renumbering, §8,
// §9 data points 700 / STRING 60 / difference 400, add at once 50). Up to 700 rows: the table
// renders only the rows in view (plus a margin) between two spacer rows, and one row at a time is
// edited with the schema-bound fields below the table, so typing re-renders a few dozen cells.

import { batch, computed } from '@preact/signals';
import { Component } from 'preact';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { INTERFACE_NAMES, type InterfaceId } from '../../device/model/plc.ts';
import { MAX_DIFFERENCE_POINTS, MAX_STRING_POINTS } from '../../device/model/sections/log.ts';
import { LOG_AREAS, LOG_TYPES, type LogRecord, MAX_POINTS, STRING_TYPE } from '../../device/model/sections/logfile.ts';
import { errorText, LL } from '../i18n/translate.ts';
import { addPoints, removePoints } from '../log/edit.ts';
import { pointAddress } from '../log/format.ts';
import { ADD_AT_ONCE_MAX, pointCounts, room } from '../log/limits.ts';
import { checkedPoints, fileIndex, KEY, logFiles, selectedPoint, setLogFiles } from '../log/page-state.ts';
import { afterNextFrame } from '../shell/in-steps.tsx';
import { notify } from '../state/notify.ts';
import { section } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import { LogField } from './log-field.tsx';
import { interfaceLabels } from './log-files.tsx';

// rows rendered above and below the view, from the frame after the table's first paint on: its first
// render (in /log's second step) draws the rows in view only, a third fewer elements to lay out
const OVERSCAN = 8;
const DEFAULT_ROW_PX = 32;
const DEFAULT_VIEW_PX = 480;
export const typeLabels = Object.fromEntries(LOG_TYPES.map((n, i) => [String(i), n.toUpperCase()]));
const areaLabels = Object.fromEntries(Object.entries(LOG_AREAS));

/** A row asked to come into view after the next render (a point just added). */
let pendingScroll: number | null = null;

function add(index: number, count: number): void {
  const t = LL.value.logger.point;
  const files = logFiles();
  const r = addPoints(files, index, count);
  if (r === 'no_log_file') return void notify('error', t.noLogFile()); // spec §8
  if (r === 'max_points' || r === 'max_files') return void notify('error', t.maxReached()); // spec §8
  const first = files[index]!.records.length;
  batch(() => {
    setLogFiles(r.files);
    selectedPoint.value = first;
  });
  pendingScroll = first;
  if (r.full) notify('warning', `${t.maxReached()} ${t.added({ count: r.added })}`);
}

function removeChecked(index: number): void {
  batch(() => {
    setLogFiles(removePoints(logFiles(), index, checkedPoints.value));
    checkedPoints.value = new Set();
    selectedPoint.value = null;
  });
}

function removeOne(index: number, j: number): void {
  const left = (logFiles()[index]?.records.length ?? 1) - 1;
  batch(() => {
    setLogFiles(removePoints(logFiles(), index, [j]));
    checkedPoints.value = new Set();
    selectedPoint.value = left === 0 ? null : Math.min(j, left - 1);
  });
}

function toggle(j: number): void {
  const next = new Set(checkedPoints.value);
  if (next.has(j)) next.delete(j);
  else next.add(j);
  checkedPoints.value = next;
}

interface RowProps {
  j: number;
  r: LogRecord;
  invalid: boolean;
}

function scaling(r: LogRecord): string {
  const t = LL.value.logger.point;
  return r.enable_scal ? t.scale({ plcMin: r.scal_plc_min, plcMax: r.scal_plc_max, logMin: r.scal_log_min, logMax: r.scal_log_max }) : t.scaleOff();
}

function Row({ j, r, invalid }: RowProps) {
  // each row follows its own selection and tick: a click on a point redraws the two rows whose
  // selection moved (made again for another place, so a row never answers for the place it had)
  const selected = useMemo(() => computed(() => selectedPoint.value === j), [j]).value;
  const checked = useMemo(() => computed(() => checkedPoints.value.has(j)), [j]).value;
  const t = LL.value.logger;
  const o = t.pointFields;
  const format = (o.format.options as Record<string, () => string>)[r.format];
  const endian = (o.endian.options as Record<string, () => string>)[r.endian];
  const select = () => {
    selectedPoint.value = j;
  };
  return (
    <tr data-point={j} aria-selected={selected} class={invalid ? 'invalid' : undefined} onClick={select}>
      <td class="pick">
        <input
          type="checkbox"
          aria-label={t.point.check({ id: r.id })}
          checked={checked}
          disabled={readOnly.value}
          onClick={(e) => e.stopPropagation()}
          onChange={() => toggle(j)}
        />
      </td>
      <td>
        <button
          type="button"
          class="cell"
          data-action="edit-point"
          aria-label={t.point.edit({ id: r.id })}
          title={invalid ? t.point.rowInvalid() : undefined}
          onClick={(e) => {
            e.stopPropagation();
            select();
          }}
        >
          {invalid ? `${r.id} !` : r.id}
        </button>
      </td>
      <td title={String(r.name)}>{String(r.name)}</td>
      <td>{String(r.dim)}</td>
      <td>{INTERFACE_NAMES[r.if as InterfaceId] ?? String(r.if)}</td>
      <td>{String(r.plc_addr)}</td>
      <td>{pointAddress(r)}</td>
      <td>{r.type === STRING_TYPE ? `STRING[${r.str_len}]` : (typeLabels[String(r.type)] ?? String(r.type))}</td>
      <td>{format ? format() : String(r.format)}</td>
      <td>{endian ? endian() : String(r.endian)}</td>
      <td>{String(r.decimal)}</td>
      <td>{scaling(r)}</td>
    </tr>
  );
}

/**
 * A row of the table, drawn again only when its own point, place or mark changed: a key typed into
 * one point's name re-renders that row, not the rows in view (an edit copies only the edited point,
 * web/state/equal.ts setPath); its selection and tick re-render it by themselves.
 */
class PointRow extends Component<RowProps> {
  override shouldComponentUpdate(next: RowProps): boolean {
    const p = this.props;
    return next.r !== p.r || next.j !== p.j || next.invalid !== p.invalid;
  }
  render(p: RowProps) {
    return <Row {...p} />;
  }
}

/** The Sparkplug B edge node is on in the MQTT settings being edited: the points show their Sparkplug fields (docs/sparkplug.md). */
const sparkplug = computed(() => section('pew_mqtt').temp.value.sparkplug_enable === true);

function Editor({ index, j, r }: { index: number; j: number; r: LogRecord }) {
  const t = LL.value.logger;
  const f = t.pointFields;
  const at = `log_def.${index}.records.${j}`;
  // spec §8: the point past a limit of spec §9 carries the model's too_many at its own path
  const limit = section(KEY).shownValidation.value.issues.some((i) => i.path === at && i.code === 'too_many');
  return (
    <div class="point-editor" data-point-editor={j}>
      <div class="row between">
        <h3>{t.point.editTitle({ id: r.id, name: String(r.name) })}</h3>
        <button type="button" class="btn small" data-action="remove-point" disabled={readOnly.value} onClick={() => removeOne(index, j)}>
          {t.point.remove()}
        </button>
      </div>
      {limit && (
        <p class="error" role="alert" data-point-error>
          {t.point.maxReached()}
        </p>
      )}
      <div class="grid">
        <LogField path={`${at}.name`} text={f.name} />
        <LogField path={`${at}.dim`} text={f.dim} />
        <LogField path={`${at}.if`} text={f.if} optionLabels={interfaceLabels} />
        <LogField path={`${at}.plc_addr`} text={f.plc_addr} />
        <LogField path={`${at}.area`} text={f.area} optionLabels={areaLabels} />
        <LogField path={`${at}.reg_addr`} text={f.reg_addr} />
        <LogField path={`${at}.type`} text={f.type} optionLabels={typeLabels} />
        {r.type === STRING_TYPE && <LogField path={`${at}.str_len`} text={f.str_len} />}
        <LogField path={`${at}.format`} text={f.format} />
        <LogField path={`${at}.endian`} text={f.endian} />
        <LogField path={`${at}.decimal`} text={f.decimal} />
        <LogField path={`${at}.enable_scal`} text={f.enable_scal} />
        {r.enable_scal && (
          <>
            <LogField path={`${at}.scal_plc_min`} text={f.scal_plc_min} bare />
            <LogField path={`${at}.scal_plc_max`} text={f.scal_plc_max} bare />
            <LogField path={`${at}.scal_log_min`} text={f.scal_log_min} bare />
            <LogField path={`${at}.scal_log_max`} text={f.scal_log_max} bare />
          </>
        )}
        {sparkplug.value && (
          <>
            <LogField path={`${at}.sparkplug_writable`} text={f.sparkplug_writable} />
            <LogField path={`${at}.sparkplug_deadband`} text={f.sparkplug_deadband} />
          </>
        )}
      </div>
    </div>
  );
}

/** The editor of the selected point: a click on a point redraws it and the two rows, not the table around them. */
function SelectedEditor({ index, records }: { index: number; records: readonly LogRecord[] }) {
  const j = selectedPoint.value;
  const r = j !== null && j < records.length ? records[j] : undefined;
  return r && j !== null ? <Editor index={index} j={j} r={r} /> : null;
}

export function LogPoints() {
  const t = LL.value.logger;
  const o = t.pointFields;
  const files = logFiles();
  const index = fileIndex(files.length);
  const file = files[index];
  const records = file?.records ?? [];
  const n = records.length;
  const counts = pointCounts(files);
  const view = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const [rowPx, setRowPx] = useState(DEFAULT_ROW_PX);
  const [viewPx, setViewPx] = useState(DEFAULT_VIEW_PX);
  const [howMany, setHowMany] = useState('1');
  // the rows around the view come a frame after the rows in view: on the first render, and after a
  // scroll past the rows drawn (a jump to the end draws 15 rows in its task, not 31)
  const [overscan, setOverscan] = useState(0);
  const widen = useRef<(() => void) | undefined>(undefined);
  const viewFirst = () => {
    widen.current?.();
    setOverscan(0);
    widen.current = afterNextFrame(() => setOverscan(OVERSCAN));
  };
  useEffect(() => {
    viewFirst();
    return () => widen.current?.();
  }, []);

  // the columns' widths as the browser first laid the table out by its cells, then kept (the table
  // laid out by them: `table-layout: fixed`): a key typed into a point's name then lays out its
  // row, not every row in view (36 against 7 ms of layout a key at CPU 4×), and the columns stay
  // put while other rows scroll into view; measured again for other labels (another language)
  const labels = [o.id, o.name, o.dim, o.if, o.plc_addr, o.reg_addr, o.type, o.format, o.endian, o.decimal, o.enable_scal].map((x) => x.label());
  const [columns, setColumns] = useState<readonly number[] | null>(null);
  const labelsKey = labels.join('\n');
  useEffect(() => setColumns(null), [labelsKey]);

  // the real row height and view height, so the spacers match what the browser draws, and the
  // columns' widths: read when the browser has laid the view out anyway (a ResizeObserver's
  // report), never by forcing a layout in the render's task (300 ms of /log's first render at CPU
  // 4× with 690 points)
  const hasRows = n > 0;
  useEffect(() => {
    const el = view.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const heads = [...el.querySelectorAll<HTMLElement>('thead th')];
    const measure = () => {
      const row = el.querySelector<HTMLElement>('tr[data-point]');
      if (row && row.offsetHeight > 0) setRowPx(row.offsetHeight);
      if (el.clientHeight > 0) setViewPx(el.clientHeight);
      const widths = heads.map((th) => th.getBoundingClientRect().width);
      if (widths.every((w) => w > 0)) setColumns((kept) => kept ?? widths);
    };
    const o = new ResizeObserver(measure);
    o.observe(el);
    const table = el.querySelector('table');
    if (table) o.observe(table);
    for (const th of heads) o.observe(th);
    return () => o.disconnect();
  }, [hasRows]);
  useLayoutEffect(() => {
    const el = view.current;
    if (pendingScroll === null || !el) return;
    el.scrollTop = Math.max(0, pendingScroll * rowPx - el.clientHeight / 2);
    pendingScroll = null;
    setTop(el.scrollTop);
  });

  // the rows in view at a scroll position: [first, end)
  const inView = (at: number) => [Math.floor(at / rowPx), Math.ceil((at + viewPx) / rowPx)] as const;
  const [from, to] = inView(top);
  const first = Math.max(0, from - overscan);
  const last = Math.min(n, to + overscan);
  const scrolled = (scrollTop: number) => {
    const [a, b] = inView(scrollTop);
    if (b <= first || a >= last) viewFirst();
    setTop(scrollTop);
  };
  const prefix = `log_def.${index}.records.`;
  const issues = section(KEY).shownValidation.value.issues;
  const invalidRows = new Set(issues.filter((i) => i.path.startsWith(prefix)).map((i) => Number(i.path.slice(prefix.length).split('.')[0])));
  const overLimit = issues.some((i) => i.code === 'too_many' && i.path.startsWith(prefix));
  const template = records.at(-1) ?? { type: 0, format: 'momentary' };
  const full = room(counts, template) === 0;
  const checked = checkedPoints.value;
  const allChecked = n > 0 && checked.size === n;
  const count = Number(howMany);
  // spec §9 "add at once 50": a count outside 1 – 50 is refused with the range, never changed quietly
  const countProblem =
    howMany.trim() === '' || !Number.isInteger(count)
      ? errorText('not_integer')
      : count < 1 || count > ADD_AT_ONCE_MAX
        ? errorText('out_of_range', { min: 1, max: ADD_AT_ONCE_MAX })
        : '';

  return (
    <section class="card group points-card" aria-labelledby="log-points" data-points>
      <h2 id="log-points">
        {t.titles.points()}
        {file ? ` · ${file.id} ${file.name}` : ''}
      </h2>
      <div class="points-bar">
        <span class="hint" data-counts>
          {t.point.counts({
            total: counts.total,
            max: MAX_POINTS,
            strings: counts.strings,
            maxStrings: MAX_STRING_POINTS,
            differences: counts.differences,
            maxDifferences: MAX_DIFFERENCE_POINTS,
          })}
        </span>
        <div class="row">
          <label for="log-add-count" class="sr">
            {t.point.howMany()}
          </label>
          <input
            type="number"
            id="log-add-count"
            min={1}
            max={ADD_AT_ONCE_MAX}
            step={1}
            value={howMany}
            disabled={readOnly.value}
            aria-invalid={countProblem ? true : undefined}
            aria-describedby={countProblem ? 'log-add-count-err' : undefined}
            onInput={(e) => setHowMany(e.currentTarget.value)}
          />
          <button
            type="button"
            class="btn small"
            data-action="add-points"
            disabled={readOnly.value}
            onClick={() => (countProblem ? notify('error', LL.value.form.problem({ place: t.point.howMany(), message: countProblem })) : add(index, count))}
          >
            {t.point.add()}
          </button>
          <button
            type="button"
            class="btn small"
            data-action="remove-points"
            disabled={readOnly.value || checked.size === 0}
            onClick={() => removeChecked(index)}
          >
            {t.point.removeChecked({ count: checked.size })}
          </button>
        </div>
      </div>
      {countProblem && (
        <p class="error" role="alert" id="log-add-count-err" data-count-error>
          {countProblem}
        </p>
      )}
      {!file && (
        <p class="hint" data-empty>
          {t.point.noLogFile()}
        </p>
      )}
      {file && full && (
        <p class="hint" data-max>
          {t.point.maxReached()}
        </p>
      )}
      {overLimit && (
        <p class="error" role="alert" data-list-error>
          {t.point.maxReached()}
        </p>
      )}
      {file && n === 0 && (
        <p class="hint" data-empty>
          {t.point.none()}
        </p>
      )}
      {n > 0 && (
        <div
          class="points-view"
          ref={view}
          style={{ maxHeight: `${DEFAULT_VIEW_PX}px` }}
          onScroll={(e) => scrolled(e.currentTarget.scrollTop)}
          data-points-view
        >
          <table
            class={columns ? 'points fixed' : 'points'}
            style={columns ? { minWidth: `${columns.reduce((a, w) => a + w, 0)}px` } : undefined}
            data-columns={columns ? 'kept' : 'measuring'}
          >
            {columns && (
              <colgroup>
                {columns.map((w, k) => (
                  <col key={k} style={{ width: `${w}px` }} />
                ))}
              </colgroup>
            )}
            <thead>
              <tr>
                <th class="pick">
                  <input
                    type="checkbox"
                    aria-label={t.point.checkAll()}
                    checked={allChecked}
                    disabled={readOnly.value}
                    onChange={() => {
                      checkedPoints.value = allChecked ? new Set() : new Set(records.map((_, j) => j));
                    }}
                  />
                </th>
                {labels.map((label, k) => (
                  <th key={k}>{label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {first > 0 && (
                <tr class="spacer" aria-hidden="true" style={{ height: `${first * rowPx}px` }}>
                  <td colSpan={12} />
                </tr>
              )}
              {records.slice(first, last).map((r, k) => (
                <PointRow key={first + k} j={first + k} r={r} invalid={invalidRows.has(first + k)} />
              ))}
              {last < n && (
                <tr class="spacer" aria-hidden="true" style={{ height: `${(n - last) * rowPx}px` }}>
                  <td colSpan={12} />
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      <SelectedEditor index={index} records={records} />
    </section>
  );
}
