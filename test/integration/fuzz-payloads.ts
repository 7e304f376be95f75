// Payload generators for the API fuzz test (security.md VAL-1, ERR-1): a shape of each section read
// from its valibot schema (types, limits, picklists, strict objects), the section's defaults with
// random mutations, and raw bodies that are not JSON at all. A generated payload says whether the
// schema must refuse it (`mustFail`), so the test can check more than "no 5xx".

import fc from 'fast-check';
import * as v from 'valibot';
import { JSON_LIMIT } from '../../device/api/body.ts';
import { PASSWORD_MASK } from '../../device/model/fields.ts';
import { defaultsOf, type SectionDef } from '../../device/model/section.ts';
import { anyText } from '../support/any-text.ts';

// ---------------------------------------------------------------------------------------------
// the shape of a schema

export type Shape =
  | { kind: 'object'; strict: boolean; entries: Record<string, Shape> }
  | { kind: 'array'; item: Shape; max?: number }
  | { kind: 'number'; min?: number; max?: number; integer: boolean; default?: unknown }
  | { kind: 'string'; max?: number; regexes: RegExp[] }
  | { kind: 'boolean' }
  | { kind: 'picklist'; options: readonly unknown[] }
  | { kind: 'unknown' };

interface RawSchema {
  type: string;
  wrapped?: RawSchema;
  entries?: Record<string, RawSchema>;
  item?: RawSchema;
  options?: readonly unknown[];
  pipe?: { type: string; message?: unknown; requirement?: unknown }[];
}

/** Code and params of a message built by `msg()` (device/model/issues.ts): `code|{json}`. */
function decode(message: unknown): { code: string; params: Record<string, unknown> } | undefined {
  if (typeof message !== 'string') return undefined;
  const at = message.indexOf('|');
  if (at < 0) return { code: message, params: {} };
  try {
    return { code: message.slice(0, at), params: JSON.parse(message.slice(at + 1)) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

const num = (x: unknown) => (typeof x === 'number' ? x : undefined);

export function shapeOf(schema: unknown): Shape {
  let s = schema as RawSchema;
  // the default may lie outside the range (a special value such as "disabled" -32768)
  const def = s.type === 'optional' ? (s as { default?: unknown }).default : undefined;
  while ((s.type === 'optional' || s.type === 'nullish' || s.type === 'exact_optional') && s.wrapped) s = s.wrapped;
  const actions = (s.pipe ?? []).slice(1);
  // a transform would make the checks below act on another value than the one sent
  if (actions.some((a) => a.type === 'transform' || a.type === 'trim' || a.type === 'to_lower_case' || a.type === 'to_upper_case')) return { kind: 'unknown' };
  const facts = actions.map((a) => ({ type: a.type, requirement: a.requirement, ...decode(a.message) }));
  switch (s.type) {
    case 'strict_object':
    case 'object':
    case 'loose_object':
      return {
        kind: 'object',
        strict: s.type === 'strict_object',
        entries: Object.fromEntries(Object.entries(s.entries ?? {}).map(([k, e]) => [k, shapeOf(e)])),
      };
    case 'array': {
      const maxFact = facts.find((f) => f.type === 'max_length' || f.code === 'too_many');
      return { kind: 'array', item: s.item ? shapeOf(s.item) : { kind: 'unknown' }, max: num(maxFact?.requirement) ?? num(maxFact?.params?.max) };
    }
    case 'number': {
      let min: number | undefined;
      let max: number | undefined;
      for (const f of facts) {
        if (f.code !== 'out_of_range' && f.code !== 'address_out_of_range') continue;
        const lo = num(f.params?.min);
        const hi = num(f.params?.max);
        if (lo !== undefined) min = min === undefined ? lo : Math.max(min, lo);
        if (hi !== undefined) max = max === undefined ? hi : Math.min(max, hi);
      }
      return {
        kind: 'number',
        min,
        max,
        integer: facts.some((f) => f.type === 'integer' || f.type === 'safe_integer'),
        default: typeof def === 'function' ? undefined : def,
      };
    }
    case 'string': {
      const maxFact = facts.find((f) => f.type === 'max_length');
      const regexes = facts
        .filter((f) => f.type === 'regex' && f.requirement instanceof RegExp && !f.requirement.global && !f.requirement.sticky)
        .map((f) => f.requirement as RegExp);
      return { kind: 'string', max: num(maxFact?.requirement), regexes };
    }
    case 'boolean':
      return { kind: 'boolean' };
    case 'picklist':
      return { kind: 'picklist', options: s.options ?? [] };
    default:
      return { kind: 'unknown' };
  }
}

/** Why `value` cannot pass `shape` (a sufficient reason only; undefined when it may pass). */
export function mustRefuse(shape: Shape, value: unknown): string | undefined {
  switch (shape.kind) {
    case 'number':
      if (typeof value !== 'number') return 'not a number';
      if (!Number.isFinite(value)) return 'not finite';
      if (value === shape.default) return undefined;
      if (shape.min !== undefined && value < shape.min) return `below ${shape.min}`;
      if (shape.max !== undefined && value > shape.max) return `above ${shape.max}`;
      if (shape.integer && !Number.isInteger(value)) return 'not an integer';
      return undefined;
    case 'string':
      if (typeof value !== 'string') return 'not a string';
      if (shape.max !== undefined && value.length > shape.max) return `longer than ${shape.max}`;
      for (const re of shape.regexes) if (!re.test(value)) return `does not match ${re}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'not a boolean';
    case 'picklist':
      return shape.options.includes(value as never) ? undefined : 'not one of the options';
    case 'array':
      if (!Array.isArray(value)) return 'not an array';
      if (shape.max !== undefined && value.length > shape.max) return `more than ${shape.max} items`;
      for (const item of value) {
        const why = mustRefuse(shape.item, item);
        if (why) return `item: ${why}`;
      }
      return undefined;
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
      // a submitted section is whole (device/model/section.ts validateSection): no field may be missing
      for (const key of Object.keys(shape.entries)) if (!Object.hasOwn(value, key)) return `missing ${key}`;
      for (const key of Object.keys(value)) {
        const entry = Object.hasOwn(shape.entries, key) ? shape.entries[key] : undefined;
        if (!entry) {
          if (shape.strict) return `unknown key ${JSON.stringify(key)}`;
          continue;
        }
        const why = mustRefuse(entry, (value as Record<string, unknown>)[key]);
        if (why) return `${key}: ${why}`;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// secrets

export const MARKER = 'Zq9!marker';
export const marker = (n: number) => `${MARKER}${n}`;
const SECRET_KEY_RE = /passw|^pass$|_pass$|secret|token|api_?key/i;

/** Paths (top-level keys of def.passwords plus any string field that looks like a secret). */
export function secretKeys(def: SectionDef): Set<string> {
  const out = new Set(def.passwords);
  const walk = (shape: Shape) => {
    if (shape.kind === 'object')
      for (const [k, e] of Object.entries(shape.entries)) {
        if (e.kind === 'string' && SECRET_KEY_RE.test(k)) out.add(k);
        walk(e);
      }
    else if (shape.kind === 'array') walk(shape.item);
  };
  walk(shapeOf(def.schema));
  return out;
}

// ---------------------------------------------------------------------------------------------
// JSON text with raw numbers JSON.stringify cannot write (1e400, -0, 1.0)

const RAW = '@@raw:';
const raw = (text: string) => `${RAW}${text}@@`;

/** Serialises a generated value; raw-number placeholders become the raw text. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"@@raw:([^"@]*)@@"/g, '$1');
}

// ---------------------------------------------------------------------------------------------
// mutations of a section value

type Key = string | number;
interface Spot {
  path: Key[];
  shape: Shape;
  value: unknown;
}

function spots(value: unknown, shape: Shape, path: Key[] = [], out: Spot[] = []): Spot[] {
  out.push({ path, shape, value });
  if (Array.isArray(value)) value.forEach((x, i) => spots(x, shape.kind === 'array' ? shape.item : { kind: 'unknown' }, [...path, i], out));
  else if (typeof value === 'object' && value !== null)
    for (const [k, x] of Object.entries(value)) {
      const e = shape.kind === 'object' && Object.hasOwn(shape.entries, k) ? shape.entries[k]! : { kind: 'unknown' as const };
      spots(x, e, [...path, k], out);
    }
  return out;
}

function parentOf(root: unknown, path: Key[]): Record<Key, unknown> {
  let at = root as Record<Key, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<Key, unknown>;
  return at;
}

/** Sets an own property (also for `__proto__`, which plain assignment would not create). */
function put(target: Record<Key, unknown>, key: Key, value: unknown): void {
  if (Array.isArray(target) && typeof key === 'number') target[key] = value;
  else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A value of the item schema (its defaults), or {} when it has required fields. */
function itemDefault(shape: Shape, schema: unknown): unknown {
  try {
    return v.parse(schema as v.GenericSchema, {});
  } catch {
    return shape.kind === 'object' ? {} : null;
  }
}

function schemaAt(schema: unknown, path: Key[]): unknown {
  let s = schema as RawSchema;
  for (const k of path) {
    while ((s.type === 'optional' || s.type === 'nullish') && s.wrapped) s = s.wrapped;
    const next = typeof k === 'number' ? s.item : s.entries?.[k];
    if (!next) return undefined;
    s = next;
  }
  while ((s.type === 'optional' || s.type === 'nullish') && s.wrapped) s = s.wrapped;
  return s;
}

const typeOf = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x);

const OPS = ['delete', 'retype', 'number', 'number', 'string', 'string', 'extra', 'overflow', 'null', 'item'] as const;
type Op = (typeof OPS)[number];

export interface Mutation {
  op: Op;
  at: number;
  pick: number;
  json: fc.JsonValue;
  text: string;
  key: string;
}

const EXTRA_KEYS = ['unknown', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '', ' ', 'enable', 'id ', 'ID', 'a.b', '0', '\u0000'];

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom(...OPS),
  at: fc.nat(),
  pick: fc.nat(),
  json: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' })),
  text: fc.oneof(fc.string({ maxLength: 40 }), anyText(40), fc.string({ unit: 'grapheme', maxLength: 20 })),
  key: fc.constantFrom(...EXTRA_KEYS),
});

function numberCandidates(s: Extract<Shape, { kind: 'number' }>): unknown[] {
  const lo = s.min ?? 0;
  const hi = s.max ?? 65535;
  return [
    lo,
    hi,
    lo - 1,
    hi + 1,
    lo - 0.5,
    hi + 0.5,
    lo + 0.5,
    0,
    -1,
    0.1,
    1e15,
    -1e15,
    2 ** 53 + 2,
    -(2 ** 31),
    2 ** 32,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -Number.MAX_VALUE,
    String(hi),
    String(lo),
    'NaN',
    'Infinity',
    '-Infinity',
    '0x10',
    '',
    '1e3',
    ' 5',
    raw('1e400'),
    raw('-1e400'),
    raw('1e-400'),
    raw('-0'),
    raw(`${hi}.0`),
    raw(`${lo}E0`),
    raw('1E2'),
    raw(`${hi}.00000000000000001`),
    true,
    null,
    [],
    {},
  ];
}

function stringCandidates(s: Extract<Shape, { kind: 'string' }>, text: string): string[] {
  const max = s.max ?? 64;
  return [
    'a'.repeat(max),
    'a'.repeat(max + 1),
    'x'.repeat(4000),
    '',
    ' ',
    'a\u0000b',
    'line\nbreak',
    'tab\there',
    '\u001b[31mred',
    'del\u007f',
    '\r\n',
    'Ünïcödé ✓ 日本語',
    '😀'.repeat(Math.ceil((max + 1) / 2)),
    '😀',
    '\uD800',
    'a\uDFFFb',
    '\u202Eevil',
    '\uFEFF',
    'e\u0301\u0301\u0301',
    '../../etc/passwd',
    '..\\..\\boot.ini',
    '/etc/shadow',
    '$(reboot);`id`|sh',
    "'; DROP TABLE x; --",
    '<script>alert(1)</script>',
    '%00',
    '%2e%2e%2f',
    PASSWORD_MASK,
    'mqtts://broker.example:8883',
    'localhost',
    '192.168.0.1',
    '255.255.255.256',
    'ca.pem',
    'a:b@c',
    text,
  ];
}

/** Applies one mutation in place; returns the (possibly new) root. */
export function mutate(root: unknown, rootShape: Shape, schema: unknown, m: Mutation): unknown {
  const all = spots(root, rootShape).filter((s) => s.path.length > 0);
  const want = (pred: (s: Spot) => boolean) => {
    const list = all.filter(pred);
    return list.length ? list[m.at % list.length] : undefined;
  };
  let op: Op = m.op;
  let spot: Spot | undefined;
  switch (op) {
    case 'number':
      spot = want((s) => s.shape.kind === 'number');
      break;
    case 'string':
      spot = want((s) => s.shape.kind === 'string');
      break;
    case 'overflow':
      spot = want((s) => s.shape.kind === 'array' && Array.isArray(s.value));
      break;
    case 'item':
      spot = want((s) => typeof s.path[s.path.length - 1] === 'number');
      break;
    case 'extra': {
      const objects = spots(root, rootShape).filter((s) => typeof s.value === 'object' && s.value !== null && !Array.isArray(s.value));
      const target = objects[m.at % objects.length];
      if (target) put(target.value as Record<Key, unknown>, m.key, m.json);
      return root;
    }
    default:
      spot = want(() => true);
  }
  if (!spot) {
    op = 'retype';
    spot = want(() => true);
    if (!spot) return root;
  }
  const parent = parentOf(root, spot.path);
  const key = spot.path[spot.path.length - 1]!;
  switch (op) {
    case 'delete':
      if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
      else delete parent[key];
      break;
    case 'null':
      put(parent, key, null);
      break;
    case 'retype': {
      // a JSON value of another type than the field has
      let x: unknown = m.json;
      if (typeOf(x) === typeOf(spot.value))
        x =
          typeOf(x) === 'string'
            ? 12
            : typeOf(x) === 'number'
              ? String(x)
              : typeOf(x) === 'array'
                ? { 0: x }
                : typeOf(x) === 'object'
                  ? [x]
                  : typeOf(x) === 'boolean'
                    ? Number(x)
                    : 'null';
      put(parent, key, x);
      break;
    }
    case 'number': {
      const c = numberCandidates(spot.shape as Extract<Shape, { kind: 'number' }>);
      put(parent, key, c[m.pick % c.length]);
      break;
    }
    case 'string': {
      const c = stringCandidates(spot.shape as Extract<Shape, { kind: 'string' }>, m.text);
      put(parent, key, c[m.pick % c.length]);
      break;
    }
    case 'overflow': {
      const shape = spot.shape as Extract<Shape, { kind: 'array' }>;
      const list = spot.value as unknown[];
      const sample = list.length ? list[m.pick % list.length] : itemDefault(shape.item, schemaAt(schema, [...spot.path, 0]));
      const counts = [(shape.max ?? 10) + 1, (shape.max ?? 10) + 2, 200, 2000];
      const n = counts[m.pick % counts.length]!;
      put(
        parent,
        key,
        Array.from({ length: n }, () => JSON.parse(JSON.stringify(sample)) as unknown),
      );
      break;
    }
    case 'item': {
      // a list item replaced by something of another type, or a copy of a neighbour
      const list = parent as unknown as unknown[];
      const choices = [m.json, list[(Number(key) + 1) % list.length], 'item', 7, [], null];
      put(parent, key, JSON.parse(JSON.stringify(choices[m.pick % choices.length] ?? null)) as unknown);
      break;
    }
  }
  return root;
}

/** Fills empty lists of the defaults with 0–3 items (recursively), so list items can be mutated. */
function populate(value: unknown, shape: Shape, schema: unknown, path: Key[], counts: number[]): unknown {
  if (shape.kind === 'array' && Array.isArray(value)) {
    if (value.length === 0) {
      const n = Math.min(counts.shift() ?? 0, shape.max ?? 3);
      for (let i = 0; i < n; i++) value.push(itemDefault(shape.item, schemaAt(schema, [...path, 0])));
    }
    value.forEach((x, i) => {
      value[i] = populate(x, shape.item, schema, [...path, i], counts);
    });
  } else if (shape.kind === 'object' && typeof value === 'object' && value !== null) {
    for (const [k, e] of Object.entries(shape.entries)) {
      const o = value as Record<string, unknown>;
      if (k in o) o[k] = populate(o[k], e, schema, [...path, k], counts);
    }
  }
  return value;
}

export interface SectionPayload {
  /** the body as sent */
  text: string;
  /** why the schema must refuse it, if it must */
  mustFail?: string;
  /** what the mutations were, for the failure report */
  notes: string[];
}

/** The section's defaults, lists filled, secrets set, then 0–4 mutations. */
export function sectionPayloadArb(def: SectionDef): fc.Arbitrary<SectionPayload> {
  const shape = shapeOf(def.schema);
  const secrets = [...secretKeys(def)];
  return fc
    .record({
      counts: fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 8 }),
      secrets: fc.array(
        fc.oneof(
          { weight: 4, arbitrary: fc.nat().map(marker) },
          { weight: 2, arbitrary: fc.constant(PASSWORD_MASK) },
          { weight: 2, arbitrary: fc.constant('') },
          { weight: 1, arbitrary: fc.nat().map((n) => `${marker(n)}\u0000`) }, // control character: refused
          { weight: 1, arbitrary: fc.nat().map((n) => marker(n) + 'x'.repeat(300)) }, // too long: refused
        ),
        { minLength: secrets.length, maxLength: secrets.length },
      ),
      mutations: fc.oneof(
        { weight: 3, arbitrary: fc.constant([] as Mutation[]) },
        { weight: 4, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 1 }) },
        { weight: 3, arbitrary: fc.array(mutationArb, { minLength: 2, maxLength: 4 }) },
      ),
    })
    .map(({ counts, secrets: values, mutations }) => {
      let value: unknown = populate(structuredClone(defaultsOf(def)), shape, def.schema, [], [...counts]);
      const notes: string[] = [];
      secrets.forEach((k, i) => {
        if (typeof value === 'object' && value !== null && k in value) (value as Record<string, unknown>)[k] = values[i];
      });
      for (const m of mutations) {
        value = mutate(value, shape, def.schema, m);
        notes.push(`${m.op}@${m.at}/${m.pick}`);
      }
      const sent = JSON.parse(toJsonText(value)) as unknown;
      const why = mustRefuse(shape, sent);
      return { text: toJsonText(value), ...(why ? { mustFail: why } : {}), notes };
    });
}

// ---------------------------------------------------------------------------------------------
// raw bodies

export interface RawBody {
  name: string;
  /** undefined: no Content-Type header at all */
  contentType?: string;
  body: Uint8Array | string;
  /** send as a chunked stream without Content-Length */
  chunked?: boolean;
  /** what a route that reads JSON must answer */
  expect?: { status: number; code: string };
}

const enc = (s: string) => new TextEncoder().encode(s);
const bytes = (...parts: (string | number[])[]) => {
  const chunks = parts.map((p) => (typeof p === 'string' ? enc(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};
/** A JSON object of exactly `size` bytes: {"pad":"aaa…"}. */
const jsonOfSize = (size: number) => `{"pad":"${'a'.repeat(size - 10)}"}`;

export const LIMIT = JSON_LIMIT;

export const RAW_BODIES: RawBody[] = [
  { name: 'text/plain JSON', contentType: 'text/plain', body: '{}', expect: { status: 415, code: 'invalid_json' } },
  {
    name: 'text/plain;charset JSON',
    contentType: 'text/plain;charset=UTF-8',
    body: `{"broker_password":"${marker(900001)}"}`,
    expect: { status: 415, code: 'invalid_json' },
  },
  { name: 'no content type', body: enc('{}'), expect: { status: 415, code: 'invalid_json' } },
  {
    name: 'form-encoded',
    contentType: 'application/x-www-form-urlencoded',
    body: `keep_alive=70000&broker_password=${encodeURIComponent(marker(900002))}`,
    expect: { status: 415, code: 'invalid_json' },
  },
  {
    name: 'multipart',
    contentType: 'multipart/form-data; boundary=XyZ',
    body: '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XyZ--\r\n',
    expect: { status: 415, code: 'invalid_json' },
  },
  { name: 'json-patch', contentType: 'application/json-patch+json', body: '[]', expect: { status: 415, code: 'invalid_json' } },
  { name: 'jsonp', contentType: 'application/jsonp', body: '{}', expect: { status: 415, code: 'invalid_json' } },
  { name: 'xml', contentType: 'application/xml', body: '<a>1</a>', expect: { status: 415, code: 'invalid_json' } },
  { name: 'truncated', contentType: 'application/json', body: '{"a":', expect: { status: 400, code: 'invalid_json' } },
  { name: 'empty', contentType: 'application/json', body: '', expect: { status: 400, code: 'invalid_json' } },
  { name: 'trailing comma', contentType: 'application/json', body: '{"a":1,}', expect: { status: 400, code: 'invalid_json' } },
  { name: 'single quotes', contentType: 'application/json', body: "{'a':1}", expect: { status: 400, code: 'invalid_json' } },
  { name: 'NaN literal', contentType: 'application/json', body: '{"keep_alive":NaN}', expect: { status: 400, code: 'invalid_json' } },
  { name: 'comment', contentType: 'application/json', body: '{/*x*/}', expect: { status: 400, code: 'invalid_json' } },
  { name: 'two documents', contentType: 'application/json', body: '{}{}', expect: { status: 400, code: 'invalid_json' } },
  {
    name: 'password in broken JSON',
    contentType: 'application/json',
    body: `{"broker_password":"${marker(900003)}", "pass":"${marker(900004)}"`,
    expect: { status: 400, code: 'invalid_json' },
  },
  { name: 'NUL bytes', contentType: 'application/json', body: bytes('{', [0, 0, 0], '}'), expect: { status: 400, code: 'invalid_json' } },
  { name: 'invalid UTF-8 body', contentType: 'application/json', body: bytes([0xff, 0xfe, 0xfd, 0xc0, 0xaf]), expect: { status: 400, code: 'invalid_json' } },
  {
    name: 'UTF-16 body',
    contentType: 'application/json; charset=utf-16',
    body: Uint8Array.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00]),
    expect: { status: 400, code: 'invalid_json' },
  },
  {
    name: 'invalid UTF-8 in a string',
    contentType: 'application/json',
    body: bytes('{"broker_user":"', [0xff, 0xc3, 0x28, 0xe2, 0x82], '","name":"', [0xed, 0xa0, 0x80], '"}'),
  },
  { name: 'overlong UTF-8 slash', contentType: 'application/json', body: bytes('{"broker_addr":"a', [0xc0, 0xaf], 'b"}') },
  { name: 'BOM', contentType: 'application/json', body: '\uFEFF{"unknown_key_x":1}' },
  { name: 'lone surrogate escape', contentType: 'application/json', body: '{"broker_user":"\\ud800","x\\udfff":1}' },
  { name: 'duplicate keys', contentType: 'application/json', body: '{"keep_alive":1,"keep_alive":70000}' },
  { name: 'huge exponent', contentType: 'application/json', body: '{"keep_alive":1e400,"plc_poll":-1e400,"restart_by_time":1e-400}' },
  { name: '__proto__ in a section', contentType: 'application/json', body: '{"__proto__":{"enable_mqtt":true},"constructor":{"prototype":{"x":1}}}' },
  { name: 'deep arrays', contentType: 'application/json', body: '['.repeat(30000) + ']'.repeat(30000) },
  { name: 'deep objects', contentType: 'application/json', body: `${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}` },
  { name: 'deep in a field', contentType: 'application/json', body: `{"threads":${'['.repeat(20000)}${']'.repeat(20000)}}` },
  { name: 'upper-case type', contentType: 'APPLICATION/JSON', body: '"just a string"' },
  { name: 'json with charset', contentType: 'application/json; charset=utf-8', body: '[1,2,3]' },
  { name: 'exactly the limit', contentType: 'application/json', body: jsonOfSize(LIMIT) },
  { name: 'one byte over the limit', contentType: 'application/json', body: jsonOfSize(LIMIT + 1), expect: { status: 413, code: 'body_too_large' } },
  { name: 'oversize', contentType: 'application/json', body: jsonOfSize(LIMIT + 100_000), expect: { status: 413, code: 'body_too_large' } },
  { name: 'oversize text/plain', contentType: 'text/plain', body: 'x'.repeat(LIMIT + 300_000), expect: { status: 413, code: 'body_too_large' } },
  {
    name: 'oversize invalid UTF-8',
    contentType: 'application/json',
    body: new Uint8Array(LIMIT + 200_000).fill(0xff),
    expect: { status: 413, code: 'body_too_large' },
  },
  { name: '200 KB invalid UTF-8', contentType: 'application/json', body: new Uint8Array(200_000).fill(0xff), expect: { status: 400, code: 'invalid_json' } },
  {
    name: 'chunked over the limit',
    contentType: 'application/json',
    body: jsonOfSize(LIMIT + 5000),
    chunked: true,
    expect: { status: 413, code: 'body_too_large' },
  },
  { name: 'chunked small', contentType: 'application/json', body: '{"unknown_key_y":true}', chunked: true },
];

export const rawBodyArb: fc.Arbitrary<RawBody> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...RAW_BODIES) },
  {
    weight: 1,
    arbitrary: fc
      .record({
        contentType: fc.constantFrom('application/json', 'text/plain', 'application/octet-stream', 'application/json;', 'application/json ; q=1'),
        body: fc.uint8Array({ maxLength: 200 }),
      })
      .map(({ contentType, body }): RawBody => ({ name: 'random bytes', contentType, body })),
  },
  {
    weight: 1,
    arbitrary: anyText(200).map((s): RawBody => ({ name: 'random text', contentType: 'application/json', body: s })),
  },
);
