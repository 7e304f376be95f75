// /log: the number of data points to add at once (spec §9: 50) outside 1 – 50 is refused with the
// range, at the input and when Add is pressed; nothing is added and the number is not changed.
import { describe, expect, it } from 'vitest';
import { consoleSuite, en, expectNotice, expectText, fill, loginApi, openConsole, pageBody } from './support.ts';

describe('the number of data points to add on /log', () => {
  const suite = consoleSuite();

  it('51 and 0 are refused with the range, not clamped; 50 adds 50', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/log');
    const body = pageBody(page, 'log');
    await body.locator('[data-action=add-logfile]').click();
    const counts = body.locator('[data-counts]');
    const total = (n: number) => fill(en.logger.point.counts, { total: n, max: 700, strings: 0, maxStrings: 60, differences: 0, maxDifferences: 400 });
    const count = page.locator('#log-add-count');
    const range = fill(en.errors.out_of_range, { min: 1, max: 50 });
    for (const bad of ['51', '0']) {
      await count.fill(bad);
      await expectText(body.locator('[data-count-error]'), range);
      expect(await count.getAttribute('aria-invalid')).toBe('true');
      await body.locator('[data-action=add-points]').click();
      await expectNotice(page, 'error', fill(en.form.problem, { place: en.logger.point.howMany, message: range }));
      expect(await counts.textContent()).toBe(total(0));
      expect(await count.inputValue()).toBe(bad);
    }
    await count.fill('50');
    await expect.poll(() => body.locator('[data-count-error]').count()).toBe(0);
    await body.locator('[data-action=add-points]').click();
    await expectText(counts, total(50));
  });
});
