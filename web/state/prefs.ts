// Choices remembered in the browser: theme, language and the menu's view filter.
import { effect, signal } from '@preact/signals';
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
function remember(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: not remembered */
  }
}

export const theme = signal<Theme>(read('console.theme', THEMES, 'default'));
export const filter = signal<Filter>(read('console.filter', FILTERS, 'all'));

effect(() => {
  document.documentElement.dataset.theme = theme.value;
  remember('console.theme', theme.value);
});
effect(() => remember('console.filter', filter.value));

export const storedLocale = (allowed: readonly string[], fallback: string) => read('console.locale', allowed, fallback);
export const rememberLocale = (l: string) => remember('console.locale', l);
