// The console's language: English base and fallback, German and French loaded on demand (one chunk
// per language). `LL` is a signal, so every text re-renders when the language changes.
import { signal } from '@preact/signals';
import type { Locales, TranslationFunctions } from './i18n-types.ts';
import { baseLocale, i18nObject, isLocale, locales } from './i18n-util.ts';
import { loadLocaleAsync, loadNamespaceAsync } from './i18n-util.async.ts';
import { rememberLocale, storedLocale } from '../state/prefs.ts';
import type { ClientCode } from '../api/client.ts';
import type { IssueParams } from '../../device/model/issues.ts';
import { logFieldText } from '../log/field-names.ts';

export const LOCALES = locales;
export const locale = signal<Locales>(baseLocale);
export const LL = signal<TranslationFunctions>(null as unknown as TranslationFunctions);

/** The language to start with: the remembered one, else the browser's, else English. */
export function initialLocale(): Locales {
  const browser = (navigator.language ?? '').slice(0, 2);
  return storedLocale(locales, isLocale(browser) ? browser : baseLocale) as Locales;
}

/** the online help texts are a namespace of their own, loaded the first time help is opened */
export const helpReady = signal(false);

export async function setLocale(l: Locales): Promise<void> {
  await loadLocaleAsync(l);
  if (helpReady.value) await loadNamespaceAsync(l, 'help');
  LL.value = i18nObject(l);
  locale.value = l;
  document.documentElement.lang = l;
  rememberLocale(l);
}

const show = (v: unknown) => (Array.isArray(v) ? v.join(', ') : String(v));

/** The user message of an error code with its params (spec §5, §8). */
export function errorText(code: ClientCode, params?: IssueParams): string {
  const fn = (LL.value.errors as unknown as Record<string, ((p: Record<string, string>) => string) | undefined>)[code];
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) shown[k] = show(v);
  return (fn ? fn(shown) : '') || LL.value.errors.invalid_input();
}

export interface Leaf { label?: () => string; help?: () => string; options?: Record<string, () => string> }

/** The dictionary entry of a section field; list indexes in the path are skipped (`threads.0.port`). */
function fieldLeaf(section: string, path: string): Leaf | undefined {
  let at: unknown = (LL.value.fields as unknown as Record<string, unknown>)[section];
  for (const seg of path.split('.')) if (!/^\d+$/.test(seg)) at = (at as Record<string, unknown> | undefined)?.[seg];
  return at as Leaf | undefined;
}

/** Label and help of a section field. */
export function fieldText(section: string, path: string): { label: string; help?: string } {
  if (section === 'pew_log') {
    const { leaf, where } = logFieldText(LL.value.log, path);
    const name = leaf?.label ? leaf.label() : '';
    const help = leaf?.help ? leaf.help() : '';
    return { label: [where, name].filter(Boolean).join(' · ') || path, ...(help ? { help } : {}) };
  }
  const leaf = fieldLeaf(section, path);
  // the dictionary answers every unknown key with an empty text: fall back to the field's name
  const label = leaf?.label ? leaf.label() : '';
  const help = leaf?.help ? leaf.help() : '';
  return { label: label || path, ...(help ? { help } : {}) };
}

/** The labels of a choice field's values, by value, where the dictionary has them. */
export function fieldOptions(section: string, path: string): Record<string, string> {
  const options = fieldLeaf(section, path)?.options ?? {};
  return Object.fromEntries(Object.entries(options).map(([k, fn]) => [k, fn()]));
}

/** Loads the help texts of the current language (once per language). */
export async function loadHelp(): Promise<void> {
  if (helpReady.value) return;
  await loadNamespaceAsync(locale.value, 'help');
  LL.value = i18nObject(locale.value);
  helpReady.value = true;
}
