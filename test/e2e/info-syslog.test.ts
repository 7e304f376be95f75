// The system log on /info reads as lines (spec §2 /info): the time in the user's language, the level
// as a word, the message; an entry's fields open on demand as "name value" rows, never raw JSON. The
// administrator's audit excerpt names the actions and writes the times in the console's language.
import { describe, expect, it } from 'vitest';
import { consoleMoment, consoleSuite, de, en, expectText, fr, loginApi, openConsole, pageBody } from './support.ts';

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
    const time = consoleMoment(new Date(at.time).getTime(), en.app.dateLocale);
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
    await expectText(entry.locator('time'), consoleMoment(new Date(at.time).getTime(), de.app.dateLocale));
  });

  it.each([
    ['de', de],
    ['fr', fr],
  ] as const)('the audit excerpt in %s: the actions worded, the times in the language, no raw action names', async (lang, l) => {
    const { page } = await suite.open({ locale: lang });
    await page.addInitScript((x) => localStorage.setItem('console.locale', x), lang);
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    const excerpt = pageBody(page, 'info').locator('[data-syslog-audit]');
    await expect.poll(() => excerpt.textContent(), { timeout: 15_000 }).toContain(l.users.auditActions.login_ok);
    const lines = (await excerpt.textContent())!.split('\n').filter((line) => line !== '');
    const entries = (await (await page.request.get(`${suite.d.url}/config/audit?size=200`)).json()) as {
      entries: { time: number | string; action: string; user?: string }[];
    };
    const login = entries.entries.find((e) => e.action === 'login_ok' && e.user === 'admin')!;
    const time = consoleMoment(new Date(login.time).getTime(), l.app.dateLocale);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${escapeRegExp(time)} ${escapeRegExp(l.users.auditActions.login_ok)} admin\\b`)));
    // no action by its code, no ISO time
    expect(lines.join('\n')).not.toMatch(/\blogin_ok\b|\bsetup\b|\d{4}-\d\d-\d\dT\d\d:/);
  });
});

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
