// The console's start answers in the browser (device/api/start-answers.ts, web/api/start-answers.ts):
// signed in, /info shows without asking the daemon for any of its start data, and the page took every
// answer it came with; not signed in, the login page; after the login the console asks and shows.

import type { Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { ALL_SECTIONS_PATH, AUTH_PATH, START_ANSWERS_ID, START_DATA_PATHS } from '../../device/model/start-answers.ts';
import { ADMIN, consoleSuite, loginApi, loginUi, pageBody, WAIT_MS } from './support.ts';

const START_PATHS: readonly string[] = [AUTH_PATH, ...START_DATA_PATHS];

/** The GETs of the start paths the page sends. */
function watch(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (r.method() === 'GET' && START_PATHS.includes(u.pathname + u.search)) seen.push(u.pathname + u.search);
  });
  return seen;
}
const hostShown = (page: Page) =>
  expect.poll(() => pageBody(page, 'info').locator('.facts').nth(1).textContent(), { timeout: WAIT_MS }).toContain('communicator-sim');

describe('start answers in the browser', () => {
  const suite = consoleSuite();

  it('signed in: /info shows what came with the page; none of the start requests goes out', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const seen = watch(page);
    await page.goto(`${suite.d.url}/#/info`);
    await hostShown(page);
    await pageBody(page, 'info').locator('[data-block="services"]').waitFor();
    expect(seen).toEqual([]);
    // the console read the answers and removed their element
    expect(await page.locator(`#${START_ANSWERS_ID}`).count()).toBe(0);
    // the settings pages have their sections from the same answer
    await page.goto(`${suite.d.url}/#/mqtt`);
    await page.locator('#page-title').waitFor();
    expect(seen.filter((p) => p === ALL_SECTIONS_PATH)).toEqual([]);
  });

  it('not signed in: the login page, then the console asks for its data and shows it', async () => {
    const { page } = await suite.open();
    const seen = watch(page);
    await page.goto(`${suite.d.url}/#/info`);
    await page.locator('#login-user').waitFor();
    expect(seen).toEqual([AUTH_PATH]); // no cookie: the page came as built, the console asked
    await loginUi(page, ADMIN);
    await hostShown(page);
    for (const p of START_DATA_PATHS)
      expect(
        seen.filter((s) => s === p),
        p,
      ).toHaveLength(1);
  });
});
