// Choices remembered in the browser: theme, language and the menu's view filter.
import { effect, signal } from '@preact/signals';
import { PREF_KEYS } from '../../device/model/first-frame.ts';
import { FILTERS, type Filter, THEMES, type Theme } from './pref-choices.ts';

export { FILTERS, type Filter, THEMES, type Theme };

function read<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const v = localStorage.getItem(key);
    return v && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}
/** what this page last read from or wrote to each key: a value already there is not written again */
const stored = new Map<string, string>();

function remember(key: string, value: string) {
  if (stored.get(key) === value) return;
  try {
    localStorage.setItem(key, value);
    stored.set(key, value);
  } catch {
    /* private mode: not remembered */
  }
}

function readKept<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  const v = read(key, allowed, fallback);
  stored.set(key, v); // the start writes nothing: a storage write is a round trip to the browser on a slow device
  return v;
}

export const theme = signal<Theme>(readKept(PREF_KEYS.theme, THEMES, 'default'));
export const filter = signal<Filter>(readKept(PREF_KEYS.filter, FILTERS, 'all'));

effect(() => {
  document.documentElement.dataset.theme = theme.value;
  remember(PREF_KEYS.theme, theme.value);
});
effect(() => remember(PREF_KEYS.filter, filter.value));

export const storedLocale = (allowed: readonly string[], fallback: string) => readKept(PREF_KEYS.locale, allowed, fallback);
export const rememberLocale = (l: string) => remember(PREF_KEYS.locale, l);
