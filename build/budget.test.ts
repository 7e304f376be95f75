import { describe, expect, it } from 'vitest';
import { BUDGETS, checkBudgets } from './budget.ts';

const report = (first: number, total: number) => ({ firstLoad: { bytes: first * 3, gzipBytes: first }, total: { bytes: total * 3, gzipBytes: total } });

describe('checkBudgets', () => {
  it('passes at the limits and names each exceeded budget', () => {
    expect(checkBudgets(report(BUDGETS.firstLoadGzip, BUDGETS.totalGzip))).toEqual([]);
    expect(checkBudgets(report(BUDGETS.firstLoadGzip + 1, BUDGETS.totalGzip))).toEqual([
      expect.stringMatching(/^first-load budget exceeded: .* 30721 gzip bytes, budget 30720$/),
    ]);
    expect(checkBudgets(report(10, 20), { firstLoadGzip: 5, totalGzip: 5 })).toEqual([
      expect.stringContaining('first-load budget exceeded'),
      expect.stringContaining('total budget exceeded: all web assets are 20 gzip bytes, budget 5'),
    ]);
  });

  it('the budgets of the console: 30 KB first load (lowered from 40 KB), 325 KB in all (raised with the traffic monitor page, the scrape token card, the health plots, the register watch page, the Sparkplug settings in three languages and the data a move asks with it)', () => {
    expect(BUDGETS).toEqual({ firstLoadGzip: 30720, totalGzip: 332800 });
  });
});
