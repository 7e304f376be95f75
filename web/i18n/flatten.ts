/** Nested dictionary → `path → text` for every leaf (`nav.info` → 'System information'). */
export function flatten(node: unknown, prefix = '', out: Map<string, string> = new Map()): Map<string, string> {
  if (typeof node === 'string') {
    out.set(prefix, node);
    return out;
  }
  if (node === null || typeof node !== 'object') throw new Error(`${prefix || '(root)'}: leaf is not a string`);
  for (const [key, child] of Object.entries(node)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  return out;
}
