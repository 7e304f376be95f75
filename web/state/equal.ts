/** Structural equality of two JSON values (section copies); key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => k in b && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A copy of `value` with the field at a dotted path replaced (list indexes allowed). */
export function setPath<T>(value: T, path: string, field: unknown): T {
  const [head, ...rest] = path.split('.');
  if (head === undefined || head === '') return field as T;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
  const key = Array.isArray(copy) ? Number(head) : head;
  const inner = (copy as Record<string | number, unknown>)[key];
  (copy as Record<string | number, unknown>)[key] = rest.length ? setPath(inner, rest.join('.'), field) : field;
  return copy as T;
}

/** The field at a dotted path, or undefined. */
export function getPath(value: unknown, path: string): unknown {
  let at = value;
  for (const seg of path.split('.')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[seg];
  }
  return at;
}
