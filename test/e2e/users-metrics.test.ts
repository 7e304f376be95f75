// The Prometheus scrape token card on /users in the browser (docs/monitoring.md): the administrator
// generates a token, shown once with the job to paste, and /metrics opens with it; after a reload
// the card says on and since when, never the token; a token of one's own checked as the daemon
// checks it; clear after the question, and /metrics is off again. The user role has no such card.
// In German: the card's words, the form's refusal and the daemon's own refusal.
import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { scrapeConfig } from '../../device/model/metrics-token.ts';
import { api, consoleMoment, consoleSuite, de, en, expectText, fill, loginApi, openConsole, pageBody, USER } from './support.ts';

const card = (page: Page) => pageBody(page, 'users').locator('[data-block="metrics-token"]');
const state = (page: Page) => card(page).locator('[data-metrics-state]');

describe('Prometheus scrape token card', () => {
  const suite = consoleSuite();
  const scrape = (token: string) => fetch(`${suite.d.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });

  it('generates a token shown once with the job; on since then; a token of one’s own; cleared after the question', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/users');
    const t = en.users.metrics;
    await expectText(card(page).locator('h2'), t.title);
    await expect.poll(() => state(page).getAttribute('data-metrics-state')).toBe('off');
    expect(await state(page).textContent()).toContain(t.off);
    expect(await card(page).locator('[data-action="clear-token"]').count()).toBe(0);

    await card(page).locator('[data-action="generate-token"]').click();
    await expect.poll(() => state(page).getAttribute('data-metrics-state')).toBe('on');
    const token = await card(page).locator('#metrics-shown').inputValue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await card(page).locator('label[for="metrics-shown"]').textContent()).toBe(t.shownOnce);
    // the job to paste names this unit as the browser reaches it
    expect(await card(page).locator('[data-metrics-job]').textContent()).toBe(scrapeConfig(new URL(suite.d.url).host, false));
    expect((await scrape(token)).status).toBe(200);
    const since = (await (await api(page, suite.d)).get('/config/metrics_token')).body.since as string;
    expect(await state(page).textContent()).toContain(fill(t.since, { since: consoleMoment(Date.parse(since)) }));

    // after a reload: on, and the token is nowhere on the page
    await page.reload();
    await expect.poll(() => state(page).getAttribute('data-metrics-state')).toBe('on');
    expect(await card(page).locator('[data-metrics-new]').count()).toBe(0);
    expect(await page.content()).not.toContain(token);

    // a token of one's own: refused as the daemon would, then taken; the generated one no longer opens /metrics
    await card(page).locator('[data-action="own-token"]').click();
    await card(page).locator('#metrics-own').fill('too-short');
    await card(page).locator('[data-action="save-own-token"]').click();
    await expectText(card(page).locator('.error'), fill(en.errors.too_short, { min: 16 }));
    const own = 'plant-7:every-unit-2026';
    await card(page).locator('#metrics-own').fill(own);
    await card(page).locator('[data-action="save-own-token"]').click();
    await expect.poll(() => card(page).locator('[data-form="metrics-own"]').count()).toBe(0);
    expect(await card(page).locator('[data-metrics-new]').count()).toBe(0); // one's own is not shown back
    expect((await scrape(own)).status).toBe(200);
    expect((await scrape(token)).status).toBe(401);

    // clear: after the question, off, and /metrics answers as an unknown path
    await card(page).locator('[data-action="clear-token"]').click();
    await expectText(page.locator('#dlg-text'), t.clearText);
    await page.locator('.dialog button.btn.danger').click();
    await expect.poll(() => state(page).getAttribute('data-metrics-state')).toBe('off');
    expect((await scrape(own)).status).toBe(404);
    // both changes are in the audit log below, in words
    const audit = pageBody(page, 'users').locator('[data-block="audit"]');
    await expect.poll(() => audit.textContent()).toContain(en.users.auditActions.metrics_token_cleared);
    expect(await audit.textContent()).toContain(en.users.auditActions.metrics_token_set);
  });

  it('is not there for the user role', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d, USER);
    await openConsole(page, suite.d, '/users');
    await pageBody(page, 'users').locator('[data-block="own-password"]').waitFor();
    expect(await card(page).count()).toBe(0);
  });

  it('speaks German: the card, the form’s refusal and the daemon’s own', async () => {
    const { page } = await suite.open({ locale: 'de-DE' });
    await page.addInitScript(() => localStorage.setItem('console.locale', 'de'));
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/users');
    const t = de.users.metrics;
    await expectText(card(page).locator('h2'), t.title);
    expect(await state(page).textContent()).toContain(t.off);
    expect(await card(page).locator('[data-action="generate-token"]').textContent()).toBe(t.generate);
    await card(page).locator('[data-action="own-token"]').click();
    await card(page).locator('#metrics-own').fill('mit Leerzeichen 1234567');
    await card(page).locator('[data-action="save-own-token"]').click();
    await expectText(card(page).locator('.error'), de.errors.invalid_characters);
    // the daemon's refusal of a token as it answers it (here passed on for one the form lets through)
    const refusal = await (await api(page, suite.d)).post('/config/metrics_token', { token: 'kurz' });
    expect(refusal.status).toBe(400);
    await page.route('**/config/metrics_token', (route) => route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify(refusal.body) }));
    await card(page).locator('#metrics-own').fill('a-good-token-of-my-own');
    await card(page).locator('[data-action="save-own-token"]').click();
    await expectText(card(page).locator('.error'), fill(de.errors.too_short, { min: 16 }, 'de'));
    expect(suite.d.ctx.metricsToken.isSet()).toBe(false);
  });
});
