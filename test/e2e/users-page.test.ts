// /users in the browser (spec §5 password rules, §6 roles; security.md AUTH-3, SESS-1, AUD-1): the
// administrator adds a user with the rules checked live, the new user signs in in a second browser
// and sees no users administration, the administrator ends that session and the user's next action
// shows the login; password changes by the administrator and by the user; the audit log.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import {
  api,
  consoleSuite,
  en,
  expectNotice,
  expectText,
  expectTitle,
  fill,
  loginApi,
  loginUi,
  menuLink,
  newPage,
  openConsole,
  pageBody,
  USER,
} from './support.ts';

const OPERATOR = { username: 'operator', password: 'Op3rator-Start!' };
const NEW_PW = 'Op3rator-Second!';
const OWN_PW = 'Op3rator-Third!';

const ruleStates = (page: Page, form: string) =>
  page
    .locator(`form[data-form="${form}"] [data-rule]`)
    .evaluateAll((lis) => Object.fromEntries(lis.map((li) => [li.getAttribute('data-rule'), li.getAttribute('data-ok')])));

/** Answers the confirmation dialog with its action button. */
const confirmDialog = (page: Page) => page.locator('.dialog button.btn.danger').click();

describe('users page', () => {
  const suite = consoleSuite();

  it('the administrator adds a user; that user sees no administration; an ended session shows the login at its next action', async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/users');
    await expectTitle(page, en.nav.users);
    await expect.poll(() => menuLink(page, 'users').count()).toBe(1);
    const users = pageBody(page, 'users');
    await users.locator('[data-user="admin"]').waitFor();

    // the rules of spec §5 show live while typing
    await page.locator('#add-name').fill(OPERATOR.username);
    await page.locator('#add-pw').fill('abc');
    expect(await ruleStates(page, 'add-user')).toEqual({ chars: 'no', upper: 'no', lower: 'yes', digit: 'no', special: 'no' });
    await page.locator('#add-pw').fill(OPERATOR.password);
    expect(await ruleStates(page, 'add-user')).toEqual({ chars: 'yes', upper: 'yes', lower: 'yes', digit: 'yes', special: 'yes' });
    await page.locator('#add-confirm').fill(`${OPERATOR.password}x`);
    await expectText(users.locator('form[data-form="add-user"] .error'), en.users.mismatch);
    expect(await page.locator('[data-action="add-user"]').isDisabled()).toBe(true);
    await page.locator('#add-confirm').fill(OPERATOR.password);
    await page.locator('#add-role').selectOption('user');
    await page.locator('[data-action="add-user"]').click();
    await users.locator('[data-user="operator"]').waitFor();
    await expectText(users.locator('[data-user="operator"] td').nth(1), en.roles.user);
    expect(d.ctx.users.find('operator')?.role).toBe('user');

    // the duplicate is refused with the daemon's message
    await page.locator('#add-name').fill('OPERATOR');
    await page.locator('#add-pw').fill(OPERATOR.password);
    await page.locator('#add-confirm').fill(OPERATOR.password);
    await page.locator('[data-action="add-user"]').click();
    await expectText(users.locator('form[data-form="add-user"] .error'), en.errors.user_exists);

    // the new user signs in in a second browser
    const second = await newPage(suite.browser);
    try {
      const p2 = second.page;
      await p2.goto(`${d.url}/#/info`);
      await loginUi(p2, OPERATOR);
      await expectTitle(p2, en.nav.info);
      await expectText(p2.locator('header .user'), `operator · ${en.roles.user}`);
      expect(await menuLink(p2, 'users').count()).toBe(0);
      expect(await menuLink(p2, 'info').count()).toBe(1);
      await p2.goto(`${d.url}/#/users`);
      await expectText(pageBody(p2, 'users').locator('[data-note="admin-only"]'), en.users.adminOnly);
      expect(await pageBody(p2, 'users').locator('[data-block="users"], [data-block="sessions"], [data-block="audit"]').count()).toBe(0);
      await pageBody(p2, 'users').locator('[data-block="own-password"]').waitFor();

      // the administrator ends that session
      await users.locator('[data-action="refresh-sessions"]').click();
      const row = users.locator('[data-session-user="operator"]');
      await row.waitFor();
      await row.locator('[data-action="end-session"]').click();
      await expectText(page.locator('#dlg-text'), fill(en.users.endText, { name: 'operator', source: await row.locator('td').nth(2).innerText() }));
      await confirmDialog(page);
      await expect.poll(() => users.locator('[data-session-user="operator"]').count()).toBe(0);

      // the user's next action meets the login page
      await p2.locator('#own-current').fill(OPERATOR.password);
      await p2.locator('#own-pw').fill(NEW_PW);
      await p2.locator('#own-confirm').fill(NEW_PW);
      await p2.locator('[data-action="change-own-password"]').click();
      await expectText(p2.locator('#auth-title'), en.auth.loginTitle);
      await expectText(p2.locator('main.auth p').nth(1), en.auth.expired);
      expect(await d.ctx.users.authenticate('operator', OPERATOR.password)).toBeDefined();
      expect(second.errors).toEqual([]);
    } finally {
      await second.context.close();
    }
  });

  it("the administrator sets a user's password; the user changes the own password in the page", async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/users');
    const users = pageBody(page, 'users');
    // no "set password" and no "remove" on the own row
    await users.locator('[data-user="admin"]').waitFor();
    expect(await users.locator('[data-user="admin"] button').count()).toBe(0);
    await users.locator('[data-user="operator"] [data-action="edit-password"]').click();
    await page.locator('#set-pw').fill(NEW_PW);
    await page.locator('#set-confirm').fill(NEW_PW);
    await page.locator('form[data-form="set-password"] [data-action="set-password"]').click();
    await expectNotice(page, 'info', fill(en.users.passwordSet, { name: 'operator' }));
    expect(await page.locator('form[data-form="set-password"]').count()).toBe(0);
    expect(await d.ctx.users.authenticate('operator', NEW_PW)).toBeDefined();

    const second = await newPage(suite.browser);
    try {
      const p2 = second.page;
      await p2.goto(`${d.url}/#/info`);
      await loginUi(p2, { username: 'operator', password: NEW_PW });
      await expectTitle(p2, en.nav.info);
      // the user name in the top bar leads to the own password block
      await p2.locator('header .user').click();
      await expectTitle(p2, en.nav.users);
      const own = pageBody(p2, 'users').locator('[data-block="own-password"]');
      // a wrong current password: the daemon's message, nothing changed
      await p2.locator('#own-current').fill('Wr0ng-Current!');
      await p2.locator('#own-pw').fill(OWN_PW);
      await p2.locator('#own-confirm').fill(OWN_PW);
      await p2.locator('[data-action="change-own-password"]').click();
      await expectText(own.locator('.error'), en.errors.wrong_current_password);
      await p2.locator('#own-current').fill(NEW_PW);
      await p2.locator('[data-action="change-own-password"]').click();
      await expect.poll(() => p2.locator('#own-current').inputValue()).toBe('');
      expect(await own.locator('.error').count()).toBe(0);
      expect(await d.ctx.users.authenticate('operator', OWN_PW)).toBeDefined();
      // this browser goes on in its fresh session: a change through the API with its new token works
      const a = await api(p2, d);
      expect((await a.get('/config/get_syslogs')).status).toBe(200);
      expect(second.errors).toEqual([]);
    } finally {
      await second.context.close();
    }
  });

  it('the audit log shows every change, pages and downloads; /info shows the audit to the administrator only', async () => {
    const { page } = await suite.open();
    const d = suite.d;
    await loginApi(page, d);
    await openConsole(page, d, '/users');
    const audit = pageBody(page, 'users').locator('[data-block="audit"]');
    await audit.locator('tbody tr').first().waitFor();
    const actions = await audit.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action-name')));
    for (const a of ['user_add', 'session_end', 'password_change', 'password_change_failed']) expect(actions).toContain(a);
    // newest first: the first row is the latest entry of the log
    const latest = (await (await api(page, d)).get('/config/audit?size=1')).body.entries[0];
    expect(actions[0]).toBe(latest.action);
    // the action in the technician's words, not the log's code
    const shown = await audit.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(shown.slice(0, actions.length)).toEqual(actions.map((a) => en.users.auditActions[a as keyof typeof en.users.auditActions] ?? a));
    expect(shown).toContain(en.users.auditActions.user_add);
    const total = (await (await api(page, d)).get('/config/audit?size=1')).body.total as number;
    await expectText(audit.locator('[data-audit-page]'), fill(en.users.page, { page: 1, pages: Math.ceil(total / 25), total }));
    if (total > 25) {
      await audit.locator('[data-action="audit-older"]').click();
      await expectText(audit.locator('[data-audit-page]'), fill(en.users.page, { page: 2, pages: Math.ceil(total / 25), total }));
    }
    const download = page.waitForEvent('download');
    await audit.locator('[data-action="download-audit"]').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('audit.log');
    const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks as Buffer[]).toString('utf8'));
    expect(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).action),
    ).toContain('user_add');

    // /info: the system log with the audit entries for the administrator
    await openConsole(page, d, '/info');
    // each action and time as the console's language writes them, not the daemon's codes and ISO times
    const excerpt = pageBody(page, 'info').locator('[data-syslog-audit]');
    await expect.poll(() => excerpt.textContent(), { timeout: 15_000 }).toContain(en.users.auditActions.user_add);
    expect(await excerpt.textContent()).not.toMatch(/\buser_add\b|\d{4}-\d\d-\d\dT\d/);
    // the user role gets the daemon log only
    const viewer = await newPage(suite.browser);
    try {
      await loginApi(viewer.page, d, USER);
      await openConsole(viewer.page, d, '/info');
      await pageBody(viewer.page, 'info').locator('[data-syslog]').waitFor();
      await viewer.page.waitForResponse((r) => r.url().endsWith('/config/get_syslogs'), { timeout: 15_000 });
      expect(await pageBody(viewer.page, 'info').locator('[data-syslog-audit]').count()).toBe(0);
      expect(viewer.errors).toEqual([]);
    } finally {
      await viewer.context.close();
    }
  });
});
