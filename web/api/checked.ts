// An answer of the daemon checked against its schema before a page shows it: one the console does
// not understand (another daemon version) fails as `internal` instead of showing half of it.
import * as v from 'valibot';
import { ApiFailure } from './client.ts';

export function checked<S extends v.GenericSchema>(schema: S, answer: unknown): v.InferOutput<S> {
  const parsed = v.safeParse(schema, answer);
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}
