// The secrets of a section (spec §3: stored non-empty passwords are shown as a row of asterisks):
// its password fields and the values of list items marked secret (a custom HTTP header with an API
// key). One home for how they are masked on read, kept when the mask comes back, kept only for the
// target they were saved for (security.md SEC-2), left out of a backup without a password and
// taken from the unit when such a backup is restored.
import { PASSWORD_MASK } from './fields.ts';
import { type Issue, issue } from './issues.ts';
import type { SectionDef } from './section.ts';

type Obj = Record<string, unknown>;
const isPlainObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

/** One list item's secret: where its value is, the item's name (lower case) and whether it is marked secret. */
interface ItemSecret {
  list: string;
  index: number;
  field: string;
  id: string;
  value: unknown;
  secret: boolean;
}

function itemSecrets(def: SectionDef, value: unknown): ItemSecret[] {
  if (!def.secretLists || !isPlainObject(value)) return [];
  const out: ItemSecret[] = [];
  for (const [list, s] of Object.entries(def.secretLists)) {
    const items = value[list];
    if (!Array.isArray(items)) continue;
    items.forEach((item: unknown, index) => {
      if (!isPlainObject(item)) return;
      out.push({ list, index, field: s.value, id: String(item[s.key]).toLowerCase(), value: item[s.value], secret: item[s.flag] === true });
    });
  }
  return out;
}

const pathOf = (x: ItemSecret) => `${x.list}.${x.index}.${x.field}`;

/** The stored secret of the item named like `x` in the same list (a non-empty string), if any. */
function storedSecret(def: SectionDef, stored: unknown, x: ItemSecret): string | undefined {
  const hit = itemSecrets(def, stored).find((o) => o.secret && o.list === x.list && o.id === x.id);
  return typeof hit?.value === 'string' && hit.value !== '' ? hit.value : undefined;
}

/** `value` with every item secret `fill` returns something for replaced (lists and items copied, never changed in place). */
function withItemValues(def: SectionDef, value: Obj, fill: (x: ItemSecret) => unknown): Obj {
  const out: Obj = { ...value };
  for (const x of itemSecrets(def, value)) {
    const next = fill(x);
    if (next === undefined) continue;
    const items = out[x.list] === value[x.list] ? [...(value[x.list] as unknown[])] : (out[x.list] as unknown[]);
    items[x.index] = { ...(items[x.index] as Obj), [x.field]: next };
    out[x.list] = items;
  }
  return out;
}

/** The section as an answer shows it: every non-empty secret replaced by the mask. */
export function maskSection<T>(def: SectionDef, value: T): T {
  if (!isPlainObject(value) || (!def.passwords.length && !def.secretLists)) return value;
  const out = withItemValues(def, value, (x) => (x.secret && typeof x.value === 'string' && x.value !== '' ? PASSWORD_MASK : undefined));
  for (const p of def.passwords) if (typeof out[p] === 'string' && out[p] !== '') out[p] = PASSWORD_MASK;
  return out as T;
}

/**
 * Secrets `incoming` leaves out (`hole` says which values stand for "keep it") taken from `stored`:
 * a password field from the same field, an item secret from the stored item of the same name that
 * was secret. A hole with nothing to keep stays a hole for an item (the stale mask check names it)
 * and becomes '' for a password field.
 */
function keepSecrets<T>(def: SectionDef, incoming: T, stored: unknown, hole: (v: unknown) => boolean): T {
  if (!isPlainObject(incoming)) return incoming;
  const old = isPlainObject(stored) ? stored : {};
  const out = withItemValues(def, incoming, (x) => (x.secret && hole(x.value) ? storedSecret(def, old, x) : undefined));
  for (const p of def.passwords) if (hole(out[p])) out[p] = typeof old[p] === 'string' ? old[p] : '';
  return out as T;
}

/** Where the console sent the mask back, the stored secret stays. */
export function unmaskSection<T>(def: SectionDef, incoming: T, stored: unknown): T {
  return keepSecrets(def, incoming, stored, (v) => v === PASSWORD_MASK);
}

/** A backup without a password holds no secret: every one emptied. */
export function clearSecrets<T>(def: SectionDef, value: T): T {
  if (!isPlainObject(value)) return value;
  const out = withItemValues(def, value, (x) => (x.secret && typeof x.value === 'string' ? '' : undefined));
  for (const p of def.passwords) if (typeof out[p] === 'string') out[p] = '';
  return out as T;
}

/** Restoring such a backup: the unit keeps its own secret where the backup has none. */
export function restoreSecrets<T>(def: SectionDef, fromBackup: T, current: unknown): T {
  return keepSecrets(def, fromBackup, current, (v) => v === '' || v === undefined);
}

/**
 * security.md SEC-2: a masked secret stays only for the target it was saved for. For each secret
 * that comes back as the mask while one of its target fields differs from the stored copy, a
 * `password_required` issue naming the changed fields: it must be typed again. So too for a masked
 * item secret whose item has another name now (nothing stored to keep) or is no longer marked
 * secret (keeping it would show the stored secret in clear). The console runs this on its edited
 * and saved copies, the store on the submitted and stored ones.
 */
export function staleMaskIssues(def: SectionDef, incoming: unknown, stored: unknown): Issue[] {
  if (!isPlainObject(incoming)) return [];
  const old = isPlainObject(stored) ? stored : {};
  // a target field cleared sends the secret nowhere; a new value later is a change from '' again
  const moved = (fields: readonly string[]) => fields.filter((f) => incoming[f] !== old[f] && incoming[f] !== '');
  const out: Issue[] = [];
  for (const [p, fields] of Object.entries(def.targets ?? {})) {
    // a mask over an empty stored password keeps nothing: there is no secret to send anywhere
    if (def.secretLists?.[p] || incoming[p] !== PASSWORD_MASK || typeof old[p] !== 'string' || old[p] === '') continue;
    const m = moved(fields);
    if (m.length) out.push(issue(p, 'password_required', { fields: m }));
  }
  for (const x of itemSecrets(def, incoming)) {
    if (x.value !== PASSWORD_MASK) continue;
    const kept = storedSecret(def, old, x) !== undefined;
    const s = def.secretLists![x.list]!;
    // a mask that is not a secret's (an item never marked, named so) is a value like any other
    if (!kept && !x.secret) continue;
    const m = !kept ? [`${x.list}.${x.index}.${s.key}`] : !x.secret ? [`${x.list}.${x.index}.${s.flag}`] : moved(def.targets?.[x.list] ?? []);
    if (m.length) out.push(issue(pathOf(x), 'password_required', { fields: m }));
  }
  return out;
}

/** Whether the field at `path` of `value` holds a secret (a password field, or the value of an item marked secret). */
export function isSecretPath(def: SectionDef, value: unknown, path: string): boolean {
  if (def.passwords.includes(path)) return true;
  return itemSecrets(def, value).some((x) => x.secret && pathOf(x) === path);
}
