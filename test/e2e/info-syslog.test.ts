// The system log on /info reads as lines (spec §2 /info): the time in the user's language, the level
// as a word, the message; an entry's fields open on demand as "name value" rows, never raw JSON.
import { describe, expect, it } from 'vitest';
import { consoleSuite, de, en, expectText, loginApi, openConsole, pageBody } from './support.ts';

describe('the system log on /info', () => {
  const suite = consoleSuite();

  it('shows time, level and message; fields on demand; in German too', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    suite.d.ctx.log.warn('link retry', { iface: 'COM1', attempt: 3, detail: { code: 'ETIMEDOUT' } });
    const at = suite.d.ctx.log.recent().at(-1)!;
    await openConsole(page, suite.d, '/info');
    const entry = pageBody(page, 'info').locator('[data-syslog] li', { hasText: 'link retry' }).last();
    await entry.waitFor();
    const time = new Date(at.time).toLocaleString(en.app.dateLocale);
    expect(await entry.locator('time').textContent()).toBe(time);
    expect(await entry.locator('.level').textContent()).toBe(en.info.syslogLevels.warn);
    expect(await entry.locator('.msg').textContent()).toBe('link retry');
    const text = await pageBody(page, 'info').locator('[data-syslog]').innerText();
    expect(text).not.toContain('{"');
    expect(text).not.toContain('WARN');
    // the fields are hidden until asked for
    expect(await entry.locator('dl').isVisible()).toBe(false);
    await entry.locator('summary').click();
    expect(
      await entry.locator('dl > div').evaluateAll((rows) => rows.map((r) => [r.querySelector('dt')!.textContent, r.querySelector('dd')!.textContent])),
    ).toEqual([
      ['iface', 'COM1'],
      ['attempt', '3'],
      ['detail', '{"code":"ETIMEDOUT"}'],
    ]);

    await page.locator('select[data-action=language]').selectOption('de');
    await expectText(entry.locator('.level'), de.info.syslogLevels.warn);
    await expectText(entry.locator('time'), new Date(at.time).toLocaleString(de.app.dateLocale));
  });
});
