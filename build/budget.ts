// The console's size budgets (architecture: "the build fails when the size budget is exceeded").
// The unit serves the console over plain HTTP, often on a slow link: gzip bytes are what count.
import type { SizeTotal } from './report.ts';

export interface Budgets {
  /** gzip bytes of everything the browser fetches to show FIRST_LOAD_ROUTE */
  firstLoadGzip: number;
  /** gzip bytes of all web assets together */
  totalGzip: number;
}

/**
 * First load: what the browser fetches before the first page shows (the page texts, the field texts
 * and the help load with the pages that use them). All assets: every page of spec §2 with its
 * texts and online help in en, de and fr (about 40 % of it is text); a browser fetches the first
 * load and then only the pages it opens, in one language. Raised from 150 KB when the remaining
 * pages of spec §2 arrived (the console had 9 of its 22 pages when it was set), and from 240 KB to
 * 256 KB when the script editor gained its parser with its messages in three languages and the
 * logger and script pages their live status parts (244.7 KB then). Raised to 264 KB when the
 * dictionary's page texts, messages and questions left the first load for parts of their own (each a
 * chunk per language, 256.2 KB then): a browser fetches less, the sum of the files grew by their
 * chunk overhead. Raised to 272 KB when every queued service's page gained its dead letters (count,
 * download, retry and discard with their questions) and the REST page its write rules, in three
 * languages (265.8 KB then; the first load stays within its 30 KB). Raised to 280 KB when the
 * unit's status reasons (a link down, a port in use, the logger's low memory …) became codes the
 * console words in three languages instead of the daemon's English (272.9 KB then), and to 288 KB
 * when what each step of a connection test found, and the unit's own account of a failed one,
 * became codes worded in three languages too (282.8 KB then). Raised to 300 KB by the traffic monitor
 * page (/monitor: its code, its texts with the MEWTOCOL and Modbus error tables and its help in three
 * languages, 13.8 KB; 297.4 KB then), and to 304 KB with the Prometheus scrape token card on /users
 * beside it (2.4 KB; 300.3 KB then), and to 310 KB with the health plots (/health: its page, its texts
 * and help in three languages, the trend graphs' chart code now a chunk the two pages share: 6.5 KB;
 * 306.8 KB then), and to 322 KB with the register watch page (its chunk with its styles, its
 * texts and help in three languages: 11.9 KB; 318.6 KB then), and to 324 KB with the Sparkplug B settings in the
 * model (pew_mqtt's sparkplug_* and the logger points' sparkplug_writable and sparkplug_deadband, their rules, their
 * texts and help in three languages: 1.4 KB; 323.0 KB then), and to 325 KB when a move to a page began asking for
 * the page's data with the move (web/api/ask-ahead.ts, a chunk loaded after the start: 0.4 KB; 324.3 KB then). The first load was lowered from 40 KB to 30 KB
 * when it reached 29.9 KB (what the first page needs: the shell, the first page, its texts and the
 * styles it uses).
 */
export const BUDGETS: Budgets = { firstLoadGzip: 30 * 1024, totalGzip: 325 * 1024 };

/** the page the first-load budget is measured for */
export const FIRST_LOAD_ROUTE = '/#/info';

/**
 * Modules (relative to the web source folder) loaded with import() that FIRST_LOAD_ROUTE needs
 * besides the entry and its static imports: index.html preloads them with the entry (build/web.ts),
 * and the first load counts them. None in the console: its first page (/info) and the English
 * dictionary's common part are part of the shell (web/router/routes.tsx, web/i18n/translate.ts), so
 * the first render waits for no chunk of its own (on a CPU throttled 4×, /info showed its data about
 * 35 ms sooner than with the two as preloaded chunks). A browser in German or French fetches the
 * English common texts (1.7 KB gzip) for nothing, as it did when they were preloaded.
 */
export const FIRST_LOAD_MODULES: readonly string[] = [];

/** One message per exceeded budget; empty when the build fits. */
export function checkBudgets(report: { firstLoad: SizeTotal; total: SizeTotal }, budgets: Budgets = BUDGETS): string[] {
  const over: string[] = [];
  if (report.firstLoad.gzipBytes > budgets.firstLoadGzip)
    over.push(`first-load budget exceeded: ${FIRST_LOAD_ROUTE} needs ${report.firstLoad.gzipBytes} gzip bytes, budget ${budgets.firstLoadGzip}`);
  if (report.total.gzipBytes > budgets.totalGzip)
    over.push(`total budget exceeded: all web assets are ${report.total.gzipBytes} gzip bytes, budget ${budgets.totalGzip}`);
  return over;
}
