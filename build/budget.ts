// The console's size budgets (architecture: "the build fails when the size budget is exceeded").
// The unit serves the console over plain HTTP, often on a slow link: gzip bytes are what count.
import type { SizeTotal } from './report.ts';

export interface Budgets {
  /** gzip bytes of everything the browser fetches to show FIRST_LOAD_ROUTE */
  firstLoadGzip: number;
  /** gzip bytes of all web assets together */
  totalGzip: number;
}

export const BUDGETS: Budgets = { firstLoadGzip: 40 * 1024, totalGzip: 150 * 1024 };

/** the page the first-load budget is measured for */
export const FIRST_LOAD_ROUTE = '/#/info';

/**
 * Modules (relative to the web source folder) fetched for FIRST_LOAD_ROUTE besides the entry and its
 * static imports: the lazy page and the English dictionary. A module not in the build yet is left out.
 */
export const FIRST_LOAD_MODULES: readonly string[] = ['pages/info.tsx', 'i18n/en/index.ts'];

/** One message per exceeded budget; empty when the build fits. */
export function checkBudgets(report: { firstLoad: SizeTotal; total: SizeTotal }, budgets: Budgets = BUDGETS): string[] {
  const over: string[] = [];
  if (report.firstLoad.gzipBytes > budgets.firstLoadGzip)
    over.push(`first-load budget exceeded: ${FIRST_LOAD_ROUTE} needs ${report.firstLoad.gzipBytes} gzip bytes, budget ${budgets.firstLoadGzip}`);
  if (report.total.gzipBytes > budgets.totalGzip)
    over.push(`total budget exceeded: all web assets are ${report.total.gzipBytes} gzip bytes, budget ${budgets.totalGzip}`);
  return over;
}
