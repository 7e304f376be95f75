import { describe, expect, it } from 'vitest';
import { BUDGETS } from './budget.ts';
import { formatReport, makeReport } from './report.ts';

const sizes = [
  { file: 'index.html', bytes: 400, gzipBytes: 250 },
  { file: 'assets/main-A.js', bytes: 30000, gzipBytes: 12000 },
  { file: 'assets/chunk-B.js', bytes: 9000, gzipBytes: 4000 },
  { file: 'assets/main-C.css', bytes: 5000, gzipBytes: 1500 },
];

describe('size report', () => {
  const r = makeReport(
    sizes,
    { route: '/#/info', files: ['index.html', 'assets/main-A.js', 'assets/main-C.css'], missingModules: ['pages/info.tsx'] },
    BUDGETS,
  );

  it('sorts by gzip size and sums the first load and all assets', () => {
    expect(r.files.map((f) => f.file)).toEqual(['assets/main-A.js', 'assets/chunk-B.js', 'assets/main-C.css', 'index.html']);
    expect(r.firstLoad).toMatchObject({ bytes: 35400, gzipBytes: 13750, missingModules: ['pages/info.tsx'] });
    expect(r.firstLoad.files).toHaveLength(3);
    expect(r.total).toEqual({ bytes: 44400, gzipBytes: 17750 });
  });

  it('prints one row per file, the two totals and the budgets', () => {
    const text = formatReport(r);
    expect(text).toMatch(/^assets\/chunk-B\.js +9000 +4000$/m);
    expect(text).toMatch(/^first load of \/#\/info \(3 files\) +35400 +13750$/m);
    expect(text).toMatch(/^all web assets \(4 files\) +44400 +17750$/m);
    expect(text).toContain('budget first load: 13.4 KB of 30.0 KB gzip (45%)');
    expect(text).toContain('left out of the first load): pages/info.tsx');
  });
});
