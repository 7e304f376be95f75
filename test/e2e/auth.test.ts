// First run, login and logout, and the read-only view of the user role, in the browser.
import { describe, expect, it } from 'vitest';
import { PASSWORD_MIN } from '../../device/model/fields.ts';
import { USER_PASSWORD_MAX } from '../../device/model/users.ts';
import {
  ADMIN,
  api,
  type ConsolePage,
  consoleSuite,
  en,
  expectText,
  expectTitle,
  fieldInput,
  fill,
  loginApi,
  loginUi,
  newPage,
  openConsole,
  pageBody,
  RETRY_RESET,
  USER,
} from './support.ts';

describe('signing in', () => {
  const suite = consoleSuite({ admin: false });
  let cp: ConsolePage;

  it('first run: a weak password creates nothing; a good one creates the administrator and shows /info with the unit', async () => {
    cp = await suite.open();
    const { page } = cp;
    expect(suite.d.ctx.users.isEmpty()).toBe(true);
    await page.goto(`${suite.d.url}/`);
    await expectText(page.locator('#auth-title'), en.auth.setupTitle);
    expect(await page.locator('#setup-user').inputValue()).toBe('admin');

    // a password without upper case, digit or special character: the policy message, no user
    const error = page.locator('main.auth .error');
    await page.locator('#setup-pw').fill('weakpassword');
    await page.locator('#setup-repeat').fill('weakpassword');
    await page.locator('main.auth button[type=submit]').click();
    await expectText(error, `${en.auth.password}: ${fill(en.errors.password_policy, { min: PASSWORD_MIN, max: USER_PASSWORD_MAX })}`);
    // two different good passwords: refused as well
    await page.locator('#setup-pw').fill(ADMIN.password);
    await page.locator('#setup-repeat').fill(`${ADMIN.password}x`);
    await page.locator('main.auth button[type=submit]').click();
    await expectText(error, en.auth.mismatch);
    expect(suite.d.ctx.users.isEmpty()).toBe(true);
    expect((await page.request.get(`${suite.d.url}/rest/api/v1/authentication`, RETRY_RESET)).status()).toBe(401);
    await expectText(page.locator('#auth-title'), en.auth.setupTitle);

    await page.locator('#setup-repeat').fill(ADMIN.password);
    await page.locator('main.auth button[type=submit]').click();
    await expectTitle(page, en.nav.info);
    expect(suite.d.ctx.users.list()).toMatchObject([{ name: 'admin', role: 'admin' }]);
    await expectText(page.locator('header .user'), `admin · ${en.roles.admin}`);

    // /info with the simulated unit's data
    const info = pageBody(page, 'info');
    const fact = (label: string) =>
      info
        .locator('.facts > div')
        .filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
        .locator('dd');
    await expectText(fact(en.info.hostname), 'communicator-sim');
    const system = (await api(page, suite.d)).get('/rest/api/v1');
    const versions = (await system).body.versions as { app: string; bsp: string; hmi: string; minimum: Record<string, string> };
    expect(versions).toMatchObject({ bsp: '1.3.2', hmi: '4.5.2' });
    for (const k of ['app', 'bsp', 'hmi'] as const)
      await expectText(fact(en.info.versionNames[k]), `${versions[k]} (${fill(en.info.minimum, { min: versions.minimum[k]! })})`);
    const services = await suite.d.ctx.hw.services();
    expect(services.length).toBeGreaterThan(3);
    await info.locator('.services li').first().waitFor();
    const shown = await info
      .locator('.services li')
      .evaluateAll((lis) =>
        lis.map((li) => [li.getAttribute('data-service'), li.querySelector('strong')?.textContent, li.querySelector('.state')?.textContent]),
      );
    expect(shown).toEqual(services.map((s) => [s.name, s.name, s.enabled ? en.info.enabled : en.info.disabled]));
    expect(services.find((s) => s.name === 'ntpd')?.enabled).toBe(true);
    // the setup page is gone for good: a new browser gets the login page
    const other = await newPage(suite.browser);
    await other.page.goto(`${suite.d.url}/`);
    await expectText(other.page.locator('#auth-title'), en.auth.loginTitle);
    expect(other.errors).toEqual([]);
    await other.context.close();
  });

  it('log out shows the login page; a wrong password is refused; the right one signs in', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    await expectTitle(page, en.nav.info);

    await page.locator('[data-action=logout]').click();
    await expectText(page.locator('#auth-title'), en.auth.loginTitle);
    expect((await page.request.get(`${suite.d.url}/rest/api/v1/authentication`, RETRY_RESET)).status()).toBe(401);
    await expect.poll(() => page.locator('#page-title').count()).toBe(0);

    const error = page.locator('main.auth .error');
    await page.locator('main.auth button[type=submit]').click();
    await expectText(error, en.auth.required);
    await loginUi(page, { username: ADMIN.username, password: `${ADMIN.password}wrong` });
    await expectText(error, en.errors.wrong_credentials);
    await expectText(page.locator('#auth-title'), en.auth.loginTitle);
    expect((await page.request.get(`${suite.d.url}/rest/api/v1/authentication`, RETRY_RESET)).status()).toBe(401);

    await loginUi(page, ADMIN);
    await expectTitle(page, en.nav.info);
    await expectText(page.locator('header .user'), `admin · ${en.roles.admin}`);
    await pageBody(page, 'info').locator('.facts').first().waitFor();
    expect((await page.request.get(`${suite.d.url}/rest/api/v1/authentication`, RETRY_RESET)).status()).toBe(200);
  });

  it('the user role sees MQTT read-only: inputs disabled, no save, reset or save-all, the read-only badge', async () => {
    cp = await suite.open();
    const { page } = cp;
    await loginApi(page, suite.d, USER);
    await openConsole(page, suite.d, '/mqtt');
    await expectTitle(page, en.nav.mqtt);
    await expectText(page.locator('header .user'), `${USER.username} · ${en.roles.user}`);
    expect(await page.locator('header .user').getAttribute('data-role')).toBe('user');

    const form = pageBody(page, 'mqtt');
    await fieldInput(page, 'pew_mqtt', 'keep_alive').waitFor();
    const controls = form.locator('input, select, textarea');
    const states = await controls.evaluateAll((els) => els.map((e) => [(e as HTMLInputElement).name, (e as HTMLInputElement).disabled]));
    expect(states.length).toBeGreaterThanOrEqual(14);
    expect(states.filter(([, disabled]) => !disabled)).toEqual([]);
    expect(await page.locator('[data-action=save], [data-action=reset], [data-action=save-all]').count()).toBe(0);
    await expectText(page.locator('.page-bar .badge'), en.shell.readOnly);
    // the stored values are shown
    expect(await fieldInput(page, 'pew_mqtt', 'keep_alive').inputValue()).toBe('65');
    // and the daemon agrees: the user role may read but not save
    const a = await api(page, suite.d);
    const stored = await a.get('/config/pew_mqtt');
    expect(stored.status).toBe(200);
    expect((await a.post('/config/pew_mqtt', { ...stored.body, keep_alive: 99 })).status).toBe(403);
  });
});
