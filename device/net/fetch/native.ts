// Node's own fetch classes (undici), reached only when asked for: install.ts puts the daemon's own in
// their place, and this keeps the way back to the originals without loading them (the globals are
// getters that load undici on first use).
type FetchClassName = 'Headers' | 'Request' | 'Response';

const originals = new Map<FetchClassName, PropertyDescriptor | undefined>(
  (['Headers', 'Request', 'Response'] as const).map((k) => [k, Object.getOwnPropertyDescriptor(globalThis, k)]),
);

/** Node's own class (loading undici the first time). */
export function nativeFetchClass<K extends FetchClassName>(name: K): (typeof globalThis)[K] {
  const d = originals.get(name);
  const value = d?.get ? d.get.call(globalThis) : d?.value;
  if (typeof value !== 'function') throw new TypeError(`node has no ${name} class`);
  return value;
}
