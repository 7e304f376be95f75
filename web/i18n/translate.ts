// The console's language: English base and fallback, German and French loaded on demand (one chunk
// per language). `LL` is a signal, so every text re-renders when the language changes.
import { signal } from '@preact/signals';
import type { IssueParams } from '../../device/model/issues.ts';
import type { ClientCode } from '../api/client.ts';
import { logFieldText } from '../log/field-names.ts';
import { rememberLocale, storedLocale } from '../state/prefs.ts';
import type { Locales, Namespaces, TranslationFunctions } from './i18n-types.ts';
import { loadLocaleAsync, loadNamespaceAsync } from './i18n-util.async.ts';
import { baseLocale, i18nObject, isLocale, locales } from './i18n-util.ts';

export const LOCALES = locales;
export const locale = signal<Locales>(baseLocale);
export const LL = signal<TranslationFunctions>(null as unknown as TranslationFunctions);

/** The language to start with: the remembered one, else the browser's, else English. */
export function initialLocale(): Locales {
  const browser = (navigator.language ?? '').slice(0, 2);
  return storedLocale(locales, isLocale(browser) ? browser : baseLocale) as Locales;
}

/**
 * Parts of the dictionary loaded when first needed (one chunk per language each): the online help
 * when help is opened; the field texts, the logger's and the wizard's texts with the pages that use
 * them (web/router/routes.tsx), so the first page loads only the common texts.
 */
const loadedParts = new Set<Namespaces>();

/** the online help texts are loaded (the help panel waits for them) */
export const helpReady = signal(false);

export async function setLocale(l: Locales): Promise<void> {
  await loadLocaleAsync(l);
  await Promise.all([...loadedParts].map((n) => loadNamespaceAsync(l, n)));
  LL.value = i18nObject(l);
  locale.value = l;
  document.documentElement.lang = l;
  rememberLocale(l);
}

/** Loads the parts of the dictionary not loaded yet, in the current language. */
export async function loadTexts(parts: readonly Namespaces[]): Promise<void> {
  const missing = parts.filter((n) => !loadedParts.has(n));
  if (missing.length === 0) return;
  const l = locale.value;
  await Promise.all(missing.map((n) => loadNamespaceAsync(l, n)));
  for (const n of missing) loadedParts.add(n);
  // a language switch meanwhile loaded only the parts known then: bring these into its language too
  if (locale.value !== l) await Promise.all(missing.map((n) => loadNamespaceAsync(locale.value, n)));
  LL.value = i18nObject(locale.value);
}

/** One formatter per language and options: making an Intl.NumberFormat costs far more than using one. */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number in the console's language (decimal comma and grouping in German and French). */
export function formatNumber(n: number, opts?: Intl.NumberFormatOptions): string {
  const locale = LL.value.app.dateLocale();
  const key = `${locale} ${opts ? JSON.stringify(opts) : ''}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: 10, ...opts })));
  return f.format(n);
}

/** A value inside a range or a message (a port, an address, a limit): the language's decimal sign, no grouping: 0,2 · 10502. */
export const formatValue = (n: number): string => formatNumber(n, { useGrouping: false });

/** "<label>: <text>" with the language's separator (French puts a non-breaking space before the colon). */
export const labelled = (label: string, text: string): string => LL.value.form.labelled({ label, text });

const showOne = (v: unknown) => (typeof v === 'number' ? formatValue(v) : String(v));
const show = (v: unknown) => (Array.isArray(v) ? v.map(showOne).join(', ') : showOne(v));

/** The user message of an error code with its params (spec §5, §8). */
export function errorText(code: ClientCode, params?: IssueParams): string {
  const fn = (LL.value.errors as unknown as Record<string, ((p: Record<string, string>) => string) | undefined>)[code];
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) shown[k] = show(v);
  return (fn ? fn(shown) : '') || LL.value.errors.invalid_input();
}

export interface Leaf {
  label?: () => string;
  help?: () => string;
  options?: Record<string, () => string>;
}

/** The dictionary entry of a section field; list indexes in the path are skipped (`threads.0.port`). */
function fieldLeaf(section: string, path: string): Leaf | undefined {
  let at: unknown = (LL.value.fields as unknown as Record<string, unknown>)[section];
  for (const seg of path.split('.')) if (!/^\d+$/.test(seg)) at = (at as Record<string, unknown> | undefined)?.[seg];
  return at as Leaf | undefined;
}

/** Label and help of a section field. */
export function fieldText(section: string, path: string): { label: string; help?: string } {
  if (section === 'pew_log') {
    const { leaf, where } = logFieldText(LL.value.logger, path);
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

/** Loads the help texts (once; a language switch loads them in the new language). */
export async function loadHelp(): Promise<void> {
  await loadTexts(['help']);
  helpReady.value = true;
}
