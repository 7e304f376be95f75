// The console's language: English base and fallback, German and French loaded on demand (one chunk
// per language). `LL` is a signal, so every text re-renders when the language changes.
import { signal } from '@preact/signals';
import type { IssueParams } from '../../device/model/issues.ts';
import type { StatusReason } from '../../device/model/reasons.ts';
import type { ClientCode } from '../api/client.ts';
import { rememberLocale, storedLocale } from '../state/prefs.ts';
import en from './en/index.ts';
import { initFormatters } from './formatters.ts';
import type { Locales, Namespaces, TranslationFunctions, Translations } from './i18n-types.ts';
import { baseLocale, i18nObject, isLocale, loadedFormatters, loadedLocales, locales } from './i18n-util.ts';
import { memoTexts } from './memo-texts.ts';
import { formatInteger, formatLocalDateTime, formatUngrouped } from './plain-format.ts';

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
 * when help is opened; the field texts, the messages, the questions and each page's own texts with
 * the pages that use them (web/router/routes.tsx), so the first page loads only the common texts.
 */
const loadedParts = new Set<Namespaces>();
/** parts on their way, by part: a second ask (errorText once per message of a render) waits for the same load */
const pendingParts = new Map<Namespaces, Promise<void>>();

/** the online help texts are loaded (the help panel waits for them) */
export const helpReady = signal(false);

/**
 * The common texts of a language: English's are part of the shell (the base language, and the one
 * the first page shows in most browsers: no chunk to fetch and wait for), the others' load on demand.
 */
async function loadCommon(l: Locales): Promise<void> {
  const common = l === 'en' ? en : (await OTHER_LOCALES[l]()).default;
  loadedLocales[l] = { ...loadedLocales[l], ...(common as Translations) };
  loadedFormatters[l] = initFormatters(l);
}

/**
 * The common texts of the languages but English, one chunk each (as the generated
 * web/i18n/i18n-util.async.ts loads them: that module, with its table of the parts, is loaded only
 * with the first part, web/i18n/parts.ts).
 */
const OTHER_LOCALES: Record<Exclude<Locales, 'en'>, () => Promise<{ default: unknown }>> = {
  de: () => import('./de/index.ts'),
  fr: () => import('./fr/index.ts'),
};

/** Loads the part `n` of the dictionary in language `l`. */
async function loadPart(l: Locales, n: Namespaces): Promise<void> {
  const { importNamespaceAsync } = await import('./parts.ts');
  const part = await importNamespaceAsync(l, n);
  // merged once it is in: another part may have come meanwhile
  loadedLocales[l] = { ...loadedLocales[l], [n]: part };
}

export async function setLocale(l: Locales): Promise<void> {
  await loadCommon(l);
  await Promise.all([...loadedParts].map((n) => loadPart(l, n)));
  LL.value = memoTexts(i18nObject(l));
  locale.value = l;
  document.documentElement.lang = l;
  rememberLocale(l);
}

/** Loads the parts of the dictionary not loaded yet, in the current language; a part already on its way is waited for, not loaded again. */
export async function loadTexts(parts: readonly Namespaces[]): Promise<void> {
  const missing = parts.filter((n) => !loadedParts.has(n));
  const fresh = missing.filter((n) => !pendingParts.has(n));
  if (fresh.length > 0) {
    const load = loadParts(fresh).finally(() => {
      for (const n of fresh) pendingParts.delete(n);
    });
    for (const n of fresh) pendingParts.set(n, load);
  }
  await Promise.all(missing.map((n) => pendingParts.get(n)));
}

async function loadParts(missing: readonly Namespaces[]): Promise<void> {
  const l = locale.value;
  await Promise.all(missing.map((n) => loadPart(l, n)));
  for (const n of missing) loadedParts.add(n);
  // a language switch meanwhile loaded only the parts known then: bring these into its language too
  if (locale.value !== l) await Promise.all(missing.map((n) => loadPart(locale.value, n)));
  LL.value = memoTexts(i18nObject(locale.value));
}

/** One formatter per language and options: making an Intl.NumberFormat costs far more than using one. */
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number in the console's language (decimal comma and grouping in German and French). */
export function formatNumber(n: number, opts?: Intl.NumberFormatOptions): string {
  const locale = LL.value.app.dateLocale();
  const whole = opts ? undefined : formatInteger(n, locale);
  if (whole !== undefined) return whole;
  const key = `${locale} ${opts ? JSON.stringify(opts) : ''}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: 10, ...opts })));
  return f.format(n);
}

/**
 * A moment as the browser's clock reads it, in the console's language (Date.toLocaleString): the
 * one way the console writes a date and time (status, logs, audit, files, graphs). `utc`: a
 * wall-clock time kept as UTC (a log file's time on the graphs), written as it is.
 */
export function formatDateTime(at: Date | string | number, utc = false): string {
  const d = at instanceof Date ? at : new Date(at);
  const locale = LL.value.app.dateLocale();
  return formatLocalDateTime(d, locale, utc) ?? d.toLocaleString(locale, utc ? { timeZone: 'UTC' } : {});
}

/** A value inside a range or a message (a port, an address, a limit): the language's decimal sign, no grouping: 0,2 · 10502. */
export const formatValue = (n: number): string => formatUngrouped(n, LL.value.app.dateLocale()) ?? formatNumber(n, { useGrouping: false });

/** "<label>: <text>" with the language's separator (French puts a non-breaking space before the colon). */
export const labelled = (label: string, text: string): string => LL.value.form.labelled({ label, text });

const showOne = (v: unknown) => (typeof v === 'number' ? formatValue(v) : String(v));
const show = (v: unknown) => (Array.isArray(v) ? v.map(showOne).join(', ') : showOne(v));

/** Whether the messages (the dictionary's part `errors`) are loaded in the console's language; when not, loads them. */
function messagesLoaded(): boolean {
  if (loadedLocales[locale.value]?.errors !== undefined) return true;
  loadTexts(['errors']).catch((e: unknown) => console.error('loading the messages failed', e));
  return false;
}

/**
 * The user message of an error code with its params (spec §5, §8). The messages are a part of the
 * dictionary loaded with the pages and once the first page shows (web/state/console-data.ts); asked
 * for before that, they are loaded now and the text is '' until they arrive (a text shown in a page
 * re-renders then). `connection_failed` lives with the shell: it must show when the unit cannot be
 * reached, and then the messages part cannot be loaded either.
 */
export function errorText(code: ClientCode, params?: IssueParams): string {
  if (code === 'connection_failed') return LL.value.shell.connectionFailed();
  if (!messagesLoaded()) return '';
  const fn = (LL.value.errors as unknown as Record<string, ((p: Record<string, string>) => string) | undefined>)[code];
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(params ?? {})) shown[k] = show(v);
  return (fn ? fn(shown) : '') || LL.value.errors.invalid_input();
}

/**
 * The values a code of the daemon names, as its text shows them: quantities grouped as the language
 * writes them, numbers that are names (a port, an error code, a QoS level: `names`) as they are.
 */
export function shownArgs(args: Record<string, string | number> | undefined, names: readonly string[]): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [k, v] of Object.entries(args ?? {})) shown[k] = typeof v === 'number' ? (names.includes(k) ? formatValue(v) : formatNumber(v)) : v;
  return shown;
}

/**
 * Why a link, a listener or the logger is not as it should be, in the console's language (the daemon
 * sends a code and its values: device/model/reasons.ts), with the system's own words after it when it
 * sent some. Loaded with the messages, like errorText ('' until they arrive).
 */
export function reasonText(r: StatusReason): string {
  if (!messagesLoaded()) return '';
  const text = (LL.value.errors.reasons[r.code] as (p: Record<string, string>) => string)(shownArgs(r.args, ['port', 'code']));
  return r.words ? `${text} (${r.words})` : text;
}

/** Loads the help texts (once; a language switch loads them in the new language). */
export async function loadHelp(): Promise<void> {
  await loadTexts(['help']);
  helpReady.value = true;
}
