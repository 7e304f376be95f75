// Reading and checking request bodies (security.md VAL-1: JSON only, at most 64 KiB, by schema).
import type { Context } from 'hono';
import * as v from 'valibot';
import { arrayForObjectIssues, toIssues } from '../model/section.ts';
import { ApiError, invalid } from './errors.ts';

/** security.md VAL-1: a JSON body is at most 64 KiB, unless its route says it needs more (RouteDef.jsonLimit). */
export const JSON_LIMIT = 64 * 1024;
// The largest section, pew_log with its 700 data points (spec §9), is about 300 KB at the longest
// field values; a save-all of every section stays below this. Only the saves of settings need it.
export const CONFIG_JSON_LIMIT = 1024 * 1024;

/** The parsed JSON body; 415 when it is not JSON, 400 when it does not parse. */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new ApiError(415, 'invalid_json', 'Send the body as application/json');
  const text = await c.req.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON');
  }
}

/** The body checked by a schema; 400 with the issues otherwise (never echoing the input). */
export async function readBody<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S>> {
  const json = await readJson(c);
  const shape = arrayForObjectIssues(schema, json);
  if (shape.length) throw invalid(shape);
  const parsed = v.safeParse(schema, json);
  if (!parsed.success) throw invalid(toIssues(parsed.issues));
  return parsed.output;
}

export function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
