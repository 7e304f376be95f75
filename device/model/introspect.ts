// What a form needs to know about one field, read from the section's schema (architecture: "one
// schema is the truth"): its kind, range, length limit, choices and default. No second copy of a
// limit exists in the console.
import * as v from 'valibot';
import { decodeMessage } from './issues.ts';

type AnySchema = v.GenericSchema;

export interface FieldMeta {
  kind: 'boolean' | 'number' | 'string' | 'choice' | 'list' | 'object' | 'unknown';
  integer: boolean;
  min?: number;
  max?: number;
  /** text limit, or the most items of a list */
  maxLength?: number;
  options?: readonly (string | number)[];
  default?: unknown;
}

interface Node {
  type: string;
  wrapped?: AnySchema;
  entries?: Record<string, AnySchema>;
  item?: AnySchema;
  options?: readonly (string | number)[];
  pipe?: readonly Node[];
  requirement?: unknown;
  message?: unknown;
  kind?: string;
}

const node = (s: AnySchema) => s as unknown as Node;

/** The schema of the field at a dotted path (`threads.0.port`, list indexes allowed), if any. */
export function schemaAt(schema: AnySchema, path: string): AnySchema | undefined {
  let at: AnySchema | undefined = schema;
  for (const key of path === '' ? [] : path.split('.')) {
    if (!at) return undefined;
    const base = base0(at);
    if (base.entries) at = base.entries[key];
    else if (base.item && /^\d+$/.test(key)) at = base.item;
    else return undefined;
  }
  return at;
}

/** The schema under `optional(…)` and inside `pipe(…)`: the one that names the type. */
function base0(schema: AnySchema): Node {
  let n = node(schema);
  if (n.type === 'optional' && n.wrapped) n = node(n.wrapped);
  return n;
}

export function fieldMeta(schema: AnySchema): FieldMeta {
  const outer = node(schema);
  const n = base0(schema);
  const def = outer.type === 'optional' ? v.getDefault(schema as v.OptionalSchema<AnySchema, unknown>) : undefined;
  const meta: FieldMeta = { kind: 'unknown', integer: false, default: def };
  if (n.type === 'boolean') meta.kind = 'boolean';
  else if (n.type === 'number') meta.kind = 'number';
  else if (n.type === 'string') meta.kind = 'string';
  else if (n.type === 'picklist') Object.assign(meta, { kind: 'choice', options: n.options });
  else if (n.type === 'array') meta.kind = 'list';
  else if (n.type === 'strict_object' || n.type === 'object') meta.kind = 'object';
  for (const step of n.pipe ?? []) {
    if (step.type === 'integer') meta.integer = true;
    else if (step.type === 'min_value') meta.min = step.requirement as number;
    else if (step.type === 'max_value') meta.max = step.requirement as number;
    else if (step.type === 'max_length') meta.maxLength = step.requirement as number;
    else if (step.type === 'check' && typeof step.message === 'string') {
      // a range written as a check (special values, control registers) names its bounds in its message
      const { code, params } = decodeMessage(step.message);
      if ((code === 'out_of_range' || code === 'address_out_of_range') && params) {
        meta.min ??= params.min as number;
        meta.max ??= params.max as number;
      }
    }
  }
  if (n.pipe?.[0]) {
    const first = n.pipe[0];
    if (first.type === 'boolean') meta.kind = 'boolean';
    else if (first.type === 'number') meta.kind = 'number';
    else if (first.type === 'string') meta.kind = 'string';
    else if (first.type === 'array') meta.kind = 'list';
    else if (first.type === 'picklist') Object.assign(meta, { kind: 'choice', options: first.options });
  }
  return meta;
}

/** Meta of the field at a dotted path of a section schema. */
export function metaAt(schema: AnySchema, path: string): FieldMeta {
  const s = schemaAt(schema, path);
  return s ? fieldMeta(s) : { kind: 'unknown', integer: false };
}
