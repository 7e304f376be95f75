// The restrictions of one redirection thread (spec §3 "Port (pew_redirect)" mapping): which PLC
// words its clients may read (RO), read and write (R/W) or never reach (BLK); on a Modbus/TCP
// gateway also the Modbus table and first address each entry appears at. Used by /port (bound to
// the section) and by the wizard (bound to its draft). An editable table, one row per entry, where
// its box is wide enough; each row a small card of its own where it is not (web/styles/forms.css).

import type { IssueParams } from '../../device/model/issues.ts';
import { AREA_MAX, MODBUS_ADDRESS_MAX, type WordArea } from '../../device/model/plc.ts';
import { COIL, DISCRETE, MAX_RESTRICTIONS, mappedWidth, type Restriction } from '../../device/model/sections/redirect.ts';
import type { ClientCode } from '../api/client.ts';
import { fieldText } from '../i18n/field-text.ts';
import { errorText, LL, labelled } from '../i18n/translate.ts';
import { readOnly } from '../state/session.ts';
import { FieldView } from './field.tsx';

const KEY = 'pew_redirect';

export type Problem = { code: ClientCode; params?: IssueParams };

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);

/** First and last Modbus address an entry answers for on a gateway, when its numbers are usable. */
export function modbusRange(r: Partial<Record<keyof Restriction, unknown>>): { first: number; last: number } | undefined {
  const { register_area_start: s, register_area_end: e, register_area_mapped: m, type } = r;
  if (!isInt(s) || !isInt(e) || !isInt(m) || !isInt(type) || s > e) return undefined;
  const first = m;
  return { first, last: first + mappedWidth(r as Restriction) - 1 };
}

/**
 * A new entry that does not clash with the others: the DT words after the last DT entry, and on a
 * gateway the holding registers after the last ones in use.
 */
export function nextRestriction(items: readonly Partial<Restriction>[], gateway: boolean): Restriction {
  const dt = items.filter((r) => r.area === 'DT' && isInt(r.register_area_end));
  const start = dt.length ? Math.max(...dt.map((r) => r.register_area_end!)) + 1 : 0;
  const from = start > AREA_MAX.DT ? 0 : start;
  let mapped = 0;
  if (gateway) {
    const ends = items
      .filter((r) => (r.type ?? 0) === 0)
      .map((r) => modbusRange(r)?.last)
      .filter(isInt);
    mapped = ends.length ? Math.max(...ends) + 1 : 0;
    if (mapped > MODBUS_ADDRESS_MAX) mapped = 0;
  }
  return { type: 0, register_area_start: from, register_area_end: from, register_area_mapped: mapped, area: 'DT', read_write: 'RO' };
}

export interface RestrictionsProps {
  /** path of the list inside pew_redirect, e.g. `threads.0.mapping` (field ids and messages use it) */
  path: string;
  items: readonly Record<string, unknown>[];
  /** the thread is a Modbus/TCP gateway: the table and the Modbus start are shown */
  gateway: boolean;
  problem(path: string): Problem | undefined;
  onSet(path: string, value: unknown): void;
  onAdd(): void;
  onRemove(index: number): void;
  /** the PLC areas offered (the wizard's simple mode leaves DT out) */
  areas?: readonly WordArea[];
  /** a heading other than "Restrictions" */
  title?: string;
  /** draws the first `rows` entries only (a page drawn in steps: web/pages/port.tsx); all when left out */
  rows?: number;
}

/** 'addresses overlap' names the other entry of the list `list` by its number instead of its path. */
export function named(p: Problem | undefined, list: string): Problem | undefined {
  const other = p?.params?.other;
  if (p?.code !== 'addresses_overlap' || typeof other !== 'string' || !other.startsWith(`${list}.`)) return p;
  const n = Number(other.slice(list.length + 1)) + 1;
  return { ...p, params: { ...p.params, other: LL.value.port.restrictionN({ n }) } };
}

function Row(props: RestrictionsProps & { index: number; item: Record<string, unknown> }) {
  const t = LL.value.port;
  const { index, item, gateway } = props;
  const at = `${props.path}.${index}`;
  const field = (name: string, extra: { options?: readonly (string | number)[] } = {}) => (
    <FieldView
      key={name}
      section={KEY}
      path={`${at}.${name}`}
      value={item[name]}
      bare
      problem={named(props.problem(`${at}.${name}`), props.path)}
      onChange={(v) => props.onSet(`${at}.${name}`, v)}
      {...extra}
    />
  );
  const area = item.area as WordArea;
  const max = AREA_MAX[area];
  const range = gateway ? modbusRange(item) : undefined;
  const bits = item.type === COIL || item.type === DISCRETE;
  const areas = props.areas && !props.areas.includes(area) ? [...props.areas, area] : props.areas;
  return (
    <tr class="restriction" data-restriction={index}>
      {gateway && <td class="wide">{field('type')}</td>}
      <td>{field('area', areas ? { options: areas } : {})}</td>
      <td>{field('register_area_start')}</td>
      <td>{field('register_area_end')}</td>
      {gateway && <td>{field('register_area_mapped')}</td>}
      <td class="wide">{field('read_write')}</td>
      <td class="note">
        <p class="hint" data-note="range">
          {max !== undefined && t.areaRange({ area, max })}
          {range && (
            <span data-modbus>
              {' · '}
              {t.modbusRange({ first: range.first, last: range.last, unit: bits ? t.bits() : t.words() })}
            </span>
          )}
        </p>
      </td>
      <td class="remove">
        <button
          type="button"
          class="btn small"
          data-action="remove-restriction"
          aria-label={labelled(t.removeRestriction(), t.restrictionN({ n: index + 1 }))}
          disabled={readOnly.value}
          onClick={() => props.onRemove(index)}
        >
          {t.removeRestriction()}
        </button>
      </td>
    </tr>
  );
}

/** The column heads: the fields' labels (each field keeps its own label for assistive technology, shown where the rows stack). */
function Head({ path, gateway }: { path: string; gateway: boolean }) {
  const label = (name: string) => fieldText(KEY, `${path}.0.${name}`).label;
  const names = [...(gateway ? ['type'] : []), 'area', 'register_area_start', 'register_area_end', ...(gateway ? ['register_area_mapped'] : []), 'read_write'];
  return (
    <thead>
      <tr>
        {names.map((n) => (
          <th key={n} scope="col">
            {label(n)}
          </th>
        ))}
        <th scope="col">{LL.value.port.range()}</th>
        <th scope="col">
          <span class="sr">{LL.value.port.removeRestriction()}</span>
        </th>
      </tr>
    </thead>
  );
}

/** The restriction list with its add button; "max entries reached" at spec §9's 10 entries. */
export function Restrictions(props: RestrictionsProps) {
  const t = LL.value.port;
  const full = props.items.length >= MAX_RESTRICTIONS;
  const listProblem = props.problem(props.path);
  return (
    <div class="restrictions" data-restrictions={props.path}>
      <h3 class="sub">{props.title ?? t.restrictions()}</h3>
      {props.items.length === 0 ? (
        <p class="hint" data-empty>
          {t.noRestrictions()}
        </p>
      ) : (
        <div class="restriction-scroll">
          <table class="restriction-table">
            <Head path={props.path} gateway={props.gateway} />
            <tbody>
              {props.items.slice(0, props.rows).map((item, i) => (
                <Row key={i} {...props} index={i} item={item} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {listProblem && (
        <p class="error" role="alert" data-list-error>
          {errorText(listProblem.code, listProblem.params)}
        </p>
      )}
      <div class="row">
        <button type="button" class="btn small" data-action="add-restriction" disabled={readOnly.value || full} onClick={props.onAdd}>
          {t.addRestriction()}
        </button>
        {full && (
          <span class="hint" data-max>
            {errorText('too_many', { max: MAX_RESTRICTIONS })}
          </span>
        )}
      </div>
    </div>
  );
}
