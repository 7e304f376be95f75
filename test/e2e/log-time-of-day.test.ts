// The logger's specified-time trigger takes a time of day (HH:MM:SS in a time input, shown in the
// user's locale) and stores it as the model does: seconds after midnight (pew_log time_start).
import { describe, expect, it } from 'vitest';
import { api, consoleSuite, de, en, expectNotice, expectText, fieldInput, loginApi, openConsole, pageBody } from './support.ts';

const KEY = 'pew_log';

describe('the specified-time trigger on /log', () => {
  const suite = consoleSuite();

  it('shows the stored seconds as a time of day and stores the entered time as seconds', async () => {
    const { page } = await suite.open({ locale: 'de-DE' });
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    await openConsole(page, suite.d, '/log');
    await page.locator('select[data-action=language]').selectOption('de');
    const body = pageBody(page, 'log');
    await body.locator('[data-action=add-logfile]').click();
    await fieldInput(page, KEY, 'log_def.0.trigger').selectOption('2');
    const time = fieldInput(page, KEY, 'log_def.0.time_start');
    expect(await time.getAttribute('type')).toBe('time');
    expect(await time.inputValue()).toBe('00:00:00');
    await expectText(body.locator('[data-field="log_def.0.time_start"] label'), de.logger.fileFields.time_start.label);
    await expectText(body.locator('[data-field="log_def.0.time_start"] .hint'), de.logger.fileFields.time_start.help);

    await time.fill('06:30:15');
    await page.locator('.page-bar [data-action=save]').click();
    await expectNotice(page, 'info', de.form.notice.saved);
    expect((await a.get('/config/pew_log')).body.log_def[0].time_start).toBe(6 * 3600 + 30 * 60 + 15);

    // a stored value comes back as its time of day
    const log = (await a.get('/config/pew_log')).body;
    log.log_def[0].time_start = 86399;
    expect((await a.post('/config/pew_log', log)).status).toBe(200);
    await page.reload();
    await fieldInput(page, KEY, 'log_def.0.time_start').waitFor();
    expect(await fieldInput(page, KEY, 'log_def.0.time_start').inputValue()).toBe('23:59:59');
    expect(en.logger.fileFields.time_start.help).not.toContain('Seconds');
  });
});
