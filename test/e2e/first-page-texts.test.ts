// The first page (/info) loads only the texts it shows (docs/development.md, first load): the messages
// of refused input and failed requests come once it shows, without another page, so a refusal on
// /info is worded; the one message the page needs when the unit cannot be reached is there from the
// start.

import { describe, it } from 'vitest';
import { ADMIN, consoleSuite, en, expectText, fill, loginApi, loginUi, pageBody } from './support.ts';

describe('texts of the first page', () => {
  const suite = consoleSuite();

  it('a refused service save on /info, the first and only page opened, is worded', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await page.goto(`${suite.d.url}/#/info`);
    await pageBody(page, 'info').locator('[data-block="services"] li[data-service="sshd"]').waitFor();
    await page.route('**/config/pew_system', (route) =>
      route.fulfill({ status: 403, contentType: 'application/json', body: JSON.stringify({ error: { code: 'forbidden' } }) }),
    );
    await page.locator('[data-service-switch="x11vnc"]').check();
    await page.locator('[data-action="save-services"]').click();
    await expectText(page.locator('.notice span').first(), fill(en.services.saveFailed, { reason: en.errors.forbidden }));
  });

  it('the unit out of reach once signed in: /info says so in words', async () => {
    // signed in through the login page, so the page came without the daemon's start answers
    // (device/api/start-answers.ts) and the console asks for the system information itself
    const { page } = await suite.open();
    await page.goto(`${suite.d.url}/#/info`);
    await page.route('**/rest/api/v1?cache=true&js=true', (route) => route.abort());
    await loginUi(page, ADMIN);
    await expectText(pageBody(page, 'info'), en.shell.connectionFailed);
  });
});
