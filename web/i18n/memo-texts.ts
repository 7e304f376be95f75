// typesafe-i18n's translation object makes a new proxy, and copies the part of the dictionary under
// it into a new function, at every property read: `LL.value.info.versions()` is two copies and two
// proxies, each time a render reads it. The first render of /info reads a few hundred texts; this
// wrapper keeps what each read gave, so each node is made once per language.

/** `texts` with every node it gives kept: the same object (and call) as typesafe-i18n's, made once. */
export function memoTexts<T extends object>(texts: T): T {
  const kept = new Map<string, unknown>();
  return new Proxy(texts, {
    get(target, key) {
      if (typeof key === 'symbol') return Reflect.get(target, key);
      if (!kept.has(key)) {
        const v: unknown = Reflect.get(target, key);
        kept.set(key, (typeof v === 'function' || typeof v === 'object') && v !== null ? memoTexts(v) : v);
      }
      return kept.get(key);
    },
  });
}
