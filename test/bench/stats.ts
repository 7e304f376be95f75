// Figures and the printed table of `npm run bench`.

export function median(xs: readonly number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export interface Row {
  figure: string;
  ours: number | string;
  baseline?: number | string;
  note?: string;
}

const show = (x: number | string | undefined): string =>
  x === undefined ? '—' : typeof x === 'string' ? x : Number.isInteger(x) || Math.abs(x) >= 100 ? String(Math.round(x)) : x.toFixed(1);

/** ours / baseline, when both are numbers */
const ratio = (r: Row): string =>
  typeof r.ours === 'number' && typeof r.baseline === 'number' && r.baseline !== 0 ? `${(r.ours / r.baseline).toFixed(2)}×` : '—';

export function formatTable(rows: readonly Row[]): string {
  const cells = [['figure', 'ours', 'baseline', 'ratio', 'note'], ...rows.map((r) => [r.figure, show(r.ours), show(r.baseline), ratio(r), r.note ?? ''])];
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c
      .map((x, i) => (i === 1 || i === 2 || i === 3 ? x.padStart(widths[i]!) : x.padEnd(widths[i]!)))
      .join(' | ')
      .trimEnd();
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.slice(1).map(line)].join('\n');
}
