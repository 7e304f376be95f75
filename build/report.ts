// The size report of a console build: every asset with raw and gzip bytes, the first-load and total
// sums, and the budgets. Printed by `npm run build`, written to dist/web/build.json for other tools.
import type { Budgets } from './budget.ts';
import type { FileSize } from './gzip.ts';

export interface SizeTotal {
  bytes: number;
  gzipBytes: number;
}

export interface AssetSize extends FileSize {
  /** fetched for the first load of FIRST_LOAD_ROUTE */
  firstLoad: boolean;
}

export interface WebReport {
  /** largest gzip size first */
  files: AssetSize[];
  firstLoad: SizeTotal & { route: string; files: string[]; missingModules: string[] };
  total: SizeTotal;
  budgets: Budgets;
}

const sum = (xs: readonly FileSize[]): SizeTotal => ({
  bytes: xs.reduce((a, x) => a + x.bytes, 0),
  gzipBytes: xs.reduce((a, x) => a + x.gzipBytes, 0),
});

export function makeReport(
  sizes: readonly FileSize[],
  firstLoad: { route: string; files: readonly string[]; missingModules: readonly string[] },
  budgets: Budgets,
): WebReport {
  const wanted = new Set(firstLoad.files);
  const files = sizes.map((s) => ({ ...s, firstLoad: wanted.has(s.file) })).sort((a, b) => b.gzipBytes - a.gzipBytes || a.file.localeCompare(b.file));
  const first = files.filter((f) => f.firstLoad);
  return {
    files,
    firstLoad: { route: firstLoad.route, files: first.map((f) => f.file), missingModules: [...firstLoad.missingModules], ...sum(first) },
    total: sum(files),
    budgets,
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export function formatReport(r: WebReport): string {
  const rows: string[][] = [['file', 'raw', 'gzip', 'first load']];
  for (const f of r.files) rows.push([f.file, String(f.bytes), String(f.gzipBytes), f.firstLoad ? 'yes' : '']);
  rows.push(
    [`first load of ${r.firstLoad.route} (${r.firstLoad.files.length} files)`, String(r.firstLoad.bytes), String(r.firstLoad.gzipBytes), ''],
    [`all web assets (${r.files.length} files)`, String(r.total.bytes), String(r.total.gzipBytes), ''],
  );
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((c, i) => (i === 1 || i === 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const out = [line(rows[0]!), rule, ...rows.slice(1, -2).map(line), rule, ...rows.slice(-2).map(line), ''];
  const pct = (n: number, of: number) => `${Math.round((100 * n) / of)}%`;
  out.push(`budget first load: ${kb(r.firstLoad.gzipBytes)} of ${kb(r.budgets.firstLoadGzip)} gzip (${pct(r.firstLoad.gzipBytes, r.budgets.firstLoadGzip)})`);
  out.push(`budget all assets: ${kb(r.total.gzipBytes)} of ${kb(r.budgets.totalGzip)} gzip (${pct(r.total.gzipBytes, r.budgets.totalGzip)})`);
  if (r.firstLoad.missingModules.length > 0) out.push(`not in the build yet (left out of the first load): ${r.firstLoad.missingModules.join(', ')}`);
  return out.join('\n');
}
