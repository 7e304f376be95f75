// /firmware on a daemon without the supervisor (as under `npm start`): the page says that updates
// cannot be installed before any file is chosen or sent, and offers no upload; its card heading
// is not a second "Firmware update" under the page title.
import { describe, expect, it } from 'vitest';
import { consoleSuite, en, expectText, expectTitle, loginApi, openConsole, pageBody } from './support.ts';

describe('the firmware page without the supervisor', () => {
  const suite = consoleSuite();

  it('says before any upload that updates need the supervisor, and offers no upload', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/firmware');
    await expectTitle(page, en.nav.firmware);
    const body = pageBody(page, 'firmware');
    await expectText(body.locator('[data-unavailable]'), en.firmware.reasons.unavailable);
    expect(await page.locator('#firmware-files').isDisabled()).toBe(true);
    expect(await body.locator('[data-action=update]').isDisabled()).toBe(true);
    await expectText(body.locator('#firmware-title'), en.firmware.installTitle);
    expect(en.firmware.installTitle).not.toBe(en.nav.firmware);
  });
});
