// A configuration section: its schema (the truth for fields, limits, defaults and error codes),
// its spec name and index, its password fields, and the facts cross-section rules need.
import * as v from 'valibot';
import { decodeMessage, type Issue, issue } from './issues.ts';

type AnySchema = v.GenericSchema;

/** A block of PLC registers a section reserves on the service control interface (spec §9). */
export interface RegisterBlock {
  path: string; // field holding the start register
  start: number;
  length: number;
}

/** A TCP port a section listens on (spec §5 port rules). */
export interface PortUse {
  path: string;
  port: number;
}

/** A COM interface id a section reads from, and for what (spec §5 transparent-interface rule). */
export interface InterfaceUse {
  path: string;
  interfaceId: number;
  purpose: 'control' | 'logger' | 'insert';
}

// The hooks are declared as methods (bivariant parameters) so that a section of a concrete schema
// is assignable to SectionDef.
export interface SectionDef<S extends AnySchema = AnySchema> {
  /** spec §3 section name, used as the request key and the file name */
  key: string;
  /** spec §3 configuration index (com 0 … nosql 18) */
  index: number;
  schema: S;
  /** top-level string fields holding secrets: masked on read, kept when the mask comes back */
  passwords: readonly string[];
  /**
   * Lists whose items may hold a secret (device/model/secrets.ts): an item's `value` field is one
   * while its `flag` field is true, masked and kept like a password; `key` names the item, so a mask
   * that comes back keeps the stored value of the item of the same name (compared without case).
   */
  secretLists?: Readonly<Record<string, { key: string; value: string; flag: string }>>;
  /**
   * For each password (and each list of `secretLists`), the top-level fields naming where it is
   * sent (server, port, proxy): when one of them changes, the mask no longer keeps the stored
   * secret (security.md SEC-2)
   */
  targets?: Readonly<Record<string, readonly string[]>>;
  /** rules between fields of this section; run after the schema accepted the value */
  rules?(value: v.InferOutput<S>): Issue[];
  /** control-register blocks in use (only when the service is enabled) */
  registers?(value: v.InferOutput<S>): RegisterBlock[];
  /** TCP ports this section listens on (only when enabled) */
  ports?(value: v.InferOutput<S>): PortUse[];
  /** interfaces this section reads the PLC through (only when enabled) */
  interfaces?(value: v.InferOutput<S>): InterfaceUse[];
}

export type SectionValue<D extends SectionDef> = v.InferOutput<D['schema']>;

export function defineSection<S extends AnySchema>(def: SectionDef<S>): SectionDef<S> {
  return def;
}

/** The section with every field at its default: the schema applied to an empty object. */
export function defaultsOf<S extends AnySchema>(def: SectionDef<S>): v.InferOutput<S> {
  return v.parse(def.schema, {});
}

const pathOf = (i: v.BaseIssue<unknown>) => (i.path ?? []).map((p) => String(p.key)).join('.');

/** Turns valibot issues into the API's issues with stable codes. */
export function toIssues(issues: readonly v.BaseIssue<unknown>[]): Issue[] {
  return issues.map((i) => {
    if (i.expected === 'never') return issue(pathOf(i), 'unknown_key');
    const { code, params } = decodeMessage(i.message);
    return issue(pathOf(i), code, params);
  });
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** Strict validation of a whole section as submitted: schema, then the section's own rules. */
export function validateSection<S extends AnySchema>(def: SectionDef<S>, input: unknown): Checked<v.InferOutput<S>> {
  const shape = shapeIssues(def.schema, input, []);
  if (shape.length) return { ok: false, issues: shape };
  const parsed = v.safeParse(def.schema, input);
  if (!parsed.success) return { ok: false, issues: toIssues(parsed.issues) };
  const problems = def.rules?.(parsed.output) ?? [];
  return problems.length ? { ok: false, issues: problems } : { ok: true, value: parsed.output };
}

/**
 * A submitted section is whole: every field is present (a missing one would silently become its
 * default and undo a setting), and an array never stands where an object belongs (valibot's object
 * schemas accept arrays, being objects to JavaScript, and would fill them with defaults).
 */
function shapeIssues(schema: AnySchema, value: unknown, path: string[], whole = true): Issue[] {
  const inner = unwrap(schema);
  if (inner.entries) {
    if (Array.isArray(value)) return [issue(path.join('.'), 'type', { expected: 'object' })];
    if (!isPlainObject(value)) return [];
    return Object.entries(inner.entries).flatMap(([k, e]) =>
      k in value ? shapeIssues(e, value[k], [...path, k], whole) : whole ? [issue([...path, k].join('.'), 'required')] : [],
    );
  }
  if (inner.item && Array.isArray(value)) return value.flatMap((x, i) => shapeIssues(inner.item!, x, [...path, String(i)], whole));
  return [];
}

/**
 * Arrays where the schema has an object, at any depth (valibot would take `[]` for an object of
 * optional fields and fill it with defaults); every request body is checked with it (api/body.ts).
 */
export function arrayForObjectIssues(schema: AnySchema, value: unknown): Issue[] {
  return shapeIssues(schema, value, [], false);
}

/**
 * Adds the default of every missing field, at any depth, and changes nothing else (a new list item
 * in a form starts like this; tests build whole sections from a few fields with it).
 */
export function withDefaults(schema: AnySchema, value: unknown): unknown {
  const inner = unwrap(schema);
  if (inner.entries && isPlainObject(value)) {
    const out: Record<string, unknown> = { ...value };
    for (const [k, e] of Object.entries(inner.entries)) out[k] = k in value ? withDefaults(e, value[k]) : defaultFor(e);
    return out;
  }
  if (inner.item && Array.isArray(value)) return value.map((x) => withDefaults(inner.item!, x));
  return value;
}

// ---- repair: how a stored file is read (spec §3 "missing fields are filled from defaults") ----

interface Introspect {
  type: string;
  wrapped?: AnySchema;
  entries?: Record<string, AnySchema>;
  item?: AnySchema;
}

/** The schema inside an `optional(…)`, read for its object entries or list item. */
function unwrap(schema: AnySchema): Introspect & AnySchema {
  const s = schema as unknown as Introspect;
  return (s.type === 'optional' ? s.wrapped! : schema) as unknown as Introspect & AnySchema;
}

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function defaultFor(schema: AnySchema): unknown {
  return structuredClone(v.getDefault(schema as v.OptionalSchema<AnySchema, unknown>));
}

/**
 * Makes the best valid value out of stored data: unknown keys dropped, missing or invalid fields
 * replaced by their defaults, list items that cannot be repaired dropped. Used when loading files,
 * never for submitted data (that is validated strictly).
 */
export function repairValue(schema: AnySchema, value: unknown): unknown {
  const inner = unwrap(schema);
  const fallback = () => ((schema as unknown as Introspect).type === 'optional' ? defaultFor(schema) : undefined);
  let candidate: unknown = value;
  if (inner.entries) {
    if (!isPlainObject(value)) return fallback();
    const out: Record<string, unknown> = {};
    for (const [k, entry] of Object.entries(inner.entries)) {
      const repaired = k in value ? repairValue(entry, value[k]) : undefined;
      out[k] = repaired === undefined ? defaultFor(entry) : repaired;
    }
    candidate = out;
  } else if (inner.item) {
    if (!Array.isArray(value)) return fallback();
    candidate = value.map((x) => repairValue(inner.item!, x)).filter((x) => x !== undefined);
    const max = maxLengthOf(inner);
    if (max !== undefined) candidate = (candidate as unknown[]).slice(0, max);
  }
  return v.safeParse(inner, candidate).success ? candidate : fallback();
}

function maxLengthOf(schema: unknown): number | undefined {
  const pipe = (schema as { pipe?: { type: string; requirement?: unknown }[] }).pipe ?? [];
  const act = pipe.find((p) => p.type === 'max_length');
  return typeof act?.requirement === 'number' ? act.requirement : undefined;
}

/** Loads a stored section: repaired field by field, then checked as a whole; defaults if that fails. */
export function loadSection<S extends AnySchema>(def: SectionDef<S>, raw: unknown): { value: v.InferOutput<S>; repaired: boolean } {
  const candidate = repairValue(def.schema, raw);
  const checked = validateSection(def, candidate);
  if (checked.ok) return { value: checked.value, repaired: JSON.stringify(candidate) !== JSON.stringify(raw) };
  return { value: defaultsOf(def), repaired: true };
}

// ---- secrets: device/model/secrets.ts (passwords and list items marked secret) ----

export { maskSection, staleMaskIssues, unmaskSection } from './secrets.ts';
