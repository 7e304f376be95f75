// The services and factory reset blocks of /info in the browser (spec §2 /info, §3 services, §4, §5
// security warnings; security.md AUTH-2, AUD-1): the administrator switches a service, the VNC warning
// shows beside its switch before saving, the save reaches the unit and survives a reload; the user
// role sees the states read-only; the factory reset asks first, names what is lost, and lands on the
// first-run setup.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { SERVICE_DEFAULTS } from '../../hw/services.ts';
import { consoleSuite, en, expectText, loginApi, openConsole, pageBody, USER } from './support.ts';

const item = (page: Page, name: string) => pageBody(page, 'info').locator(`[data-block="services"] li[data-service="${name}"]`);
const toggle = (page: Page, name: string) => page.locator(`[data-service-switch="${name}"]`);

describe('services and factory reset on /info', () => {
  const suite = consoleSuite();

  it('the administrator switches VNC on: the warning shows beside it, the save reaches the unit and stays after a reload', async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/info');
    await item(page, 'x11vnc').waitFor();
    await expectText(item(page, 'x11vnc').locator('.hint'), en.services.desc.x11vnc);
    expect(await item(page, 'x11vnc').locator('[data-security]').count()).toBe(0);
    const save = page.locator('[data-action="save-services"]');
    expect(await save.isDisabled()).toBe(true);

    await toggle(page, 'x11vnc').check();
    await expectText(item(page, 'x11vnc').locator('[data-security="vnc_unencrypted"]'), en.info.warning.vnc_unencrypted);
    // switching NTP off while the VPN is on warns beside both
    await toggle(page, 'cloud').check();
    await toggle(page, 'ntpd').uncheck();
    await item(page, 'cloud').locator('[data-security="vpn_without_ntp"]').waitFor();
    await item(page, 'ntpd').locator('[data-security="vpn_without_ntp"]').waitFor();
    await toggle(page, 'ntpd').check(); // back to the saved state: no longer a change
    expect(await item(page, 'cloud').locator('[data-security]').count()).toBe(0);
    expect((await d.ctx.hw.services()).find((s) => s.name === 'x11vnc')?.enabled).toBe(false); // nothing saved yet

    await save.click();
    await expect
      .poll(async () =>
        (await d.ctx.hw.services())
          .filter((s) => s.enabled)
          .map((s) => s.name)
          .sort(),
      )
      .toEqual(['cloud', 'firewall', 'ntpd', 'x11vnc']);
    await expectText(page.locator('.notice span').first(), en.services.saved);
    // the page's warning list follows the save
    await pageBody(page, 'info').locator('[data-warning="vnc_unencrypted"]').waitFor();
    const audit = await d.ctx.audit.read();
    expect(audit).toContain('"action":"service_change","user":"admin"');
    expect(audit).toContain('"service":"x11vnc","enabled":true');

    await page.reload();
    await item(page, 'x11vnc').waitFor();
    expect(await toggle(page, 'x11vnc').isChecked()).toBe(true);
    await item(page, 'x11vnc').locator('[data-security="vnc_unencrypted"]').waitFor();
    expect(await save.isDisabled()).toBe(true);
  });

  it('the user role sees the services read-only and no factory reset', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d, USER);
    await openConsole(page, suite.d, '/info');
    await item(page, 'sshd').waitFor();
    await expectText(pageBody(page, 'info').locator('[data-block="services"] > .hint'), en.services.readOnly);
    expect(await toggle(page, 'sshd').isDisabled()).toBe(true);
    expect(await page.locator('[data-action="save-services"]').count()).toBe(0);
    expect(await page.locator('[data-block="factory-reset"]').count()).toBe(0);
  });

  it('the factory reset asks first, naming what is lost; confirmed, it lands on the first-run setup', async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/info');
    const button = page.locator('[data-action="factory-reset"]');
    await button.click();
    await expectText(page.locator('#dlg-title'), en.services.reset.confirmTitle);
    await expectText(page.locator('#dlg-text'), `${en.services.reset.lost} ${en.services.reset.confirmText}`);
    await page.locator('.dialog button.btn:not(.danger)').click(); // cancel: nothing happens
    expect(d.ctx.users.isEmpty()).toBe(false);

    await button.click();
    await page.locator('.dialog button.btn.danger').click();
    await page.locator('#setup-user').waitFor();
    expect(d.ctx.users.isEmpty()).toBe(true);
    expect(Object.fromEntries((await d.ctx.hw.services()).map((s) => [s.name, s.enabled]))).toEqual(SERVICE_DEFAULTS);
    expect(await d.ctx.audit.read()).toContain('"action":"factory_reset","user":"admin"');

    // the new administrator gets a console with the factory state
    await page.locator('#setup-user').fill('chief');
    await page.locator('#setup-pw').fill('N3w-Chief-Passw0rd!');
    await page.locator('#setup-repeat').fill('N3w-Chief-Passw0rd!');
    await page.locator('main.auth button[type=submit]').click();
    await item(page, 'x11vnc').waitFor();
    expect(await toggle(page, 'x11vnc').isChecked()).toBe(false);
    expect(d.ctx.users.find('chief')?.role).toBe('admin');
  });
});
