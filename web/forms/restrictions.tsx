// The restrictions of one redirection thread (spec §3 "Port (pew_redirect)" mapping): which PLC
// words its clients may read (RO), read and write (R/W) or never reach (BLK); on a Modbus/TCP
// gateway also the Modbus table and first address each entry appears at. Used by /port (bound to
// the section) and by the wizard (bound to its draft).

import type { IssueParams } from '../../device/model/issues.ts';
import { AREA_MAX, MODBUS_ADDRESS_MAX, type WordArea } from '../../device/model/plc.ts';
import { COIL, DISCRETE, MAX_RESTRICTIONS, mappedWidth, type Restriction } from '../../device/model/sections/redirect.ts';
import type { ClientCode } from '../api/client.ts';
import { errorText, LL } from '../i18n/translate.ts';
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
    <li class="restriction" data-restriction={index}>
      <div class="cells">
        {gateway && field('type')}
        {field('area', areas ? { options: areas } : {})}
        {field('register_area_start')}
        {field('register_area_end')}
        {gateway && field('register_area_mapped')}
        {field('read_write')}
      </div>
      <div class="row between">
        <p class="hint" data-note="range">
          {max !== undefined && t.areaRange({ area, max })}
          {range && (
            <span data-modbus>
              {' · '}
              {t.modbusRange({ first: range.first, last: range.last, unit: bits ? t.bits() : t.words() })}
            </span>
          )}
        </p>
        <button type="button" class="btn small" data-action="remove-restriction" disabled={readOnly.value} onClick={() => props.onRemove(index)}>
          {t.removeRestriction()}
        </button>
      </div>
    </li>
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
        <ol class="restriction-list">
          {props.items.map((item, i) => (
            <Row key={i} {...props} index={i} item={item} />
          ))}
        </ol>
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
