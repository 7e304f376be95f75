// The dead letters of a queued service in chromium against the daemon (web/forms/dead-letters.tsx;
// docs/services.md "Dead letters"): letters left on the unit's storage from before the start show
// as a count on /sql and on /info; the admin discards them after a confirmation (answering no
// keeps them), and the count and the daemon's store are empty after.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeadLetters } from '../../device/service-runtime/dead-letters.ts';
import { seqRow } from '../support/db-queue.ts';
import { en, ensureAdmin, expectText, fill, launchBrowser, loginApi, newPage, openConsole, pageBody, startConsoleDaemon, type TestDaemon } from './support.ts';

let dir: string;
let d: TestDaemon;
let browser: Browser;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dead-letters-e2e-'));
  // three rows that became dead letters before this start (a re-pointed table)
  const store = await DeadLetters.open(join(dir, 'dead-letters', 'sql'));
  const why = { target: 'postgresql://db:5432/plant table old_t', code: 'target_gone' as const, message: 'made for another table', tries: 0, at: Date.now() };
  await store.addMany([1, 2, 3].map((n) => ({ job: seqRow(n, Date.now()), why })));
  await store.close();
  [browser, d] = await Promise.all([launchBrowser(), startConsoleDaemon({ dataDir: dir })]);
  await ensureAdmin(d);
});

afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('dead letters on the service page', () => {
  it('/sql and /info show the count; discard asks first, then empties the store', async () => {
    const { context, page, errors } = await newPage(browser);
    try {
      const t = en.serviceStatus;
      await loginApi(page, d);
      await openConsole(page, d, '/info');
      await expectText(page.locator('[data-service-run=sql] [data-dead-letters]'), `· ${t.deadLetters}: 3`);
      await openConsole(page, d, '/sql');
      const block = pageBody(page, 'sql').locator('[data-block=sql-status]');
      await expectText(block.locator('[data-item=dead-letters] dd'), fill(t.deadValue, { count: '3', dropped: '0' }));
      const actions = pageBody(page, 'sql').locator('[data-block=dead-letters]');
      await expect.poll(() => actions.locator('[data-action=dead-csv]').getAttribute('href')).toContain('/config/dead_letters/sql?format=csv');
      // "no" keeps them
      await actions.locator('[data-action=dead-discard]').click();
      await expectText(page.locator('.dialog #dlg-text'), fill(t.deadDiscardText, { count: '3' }));
      await page.locator('.dialog button', { hasText: t.cancel }).click();
      await expect.poll(() => d.ctx.services.sql.dead!.list().length).toBe(3);
      // "yes" discards them
      await actions.locator('[data-action=dead-discard]').click();
      await page.locator('.dialog button.danger').click();
      await expectText(block.locator('[data-item=dead-letters] dd'), fill(t.deadValue, { count: '0', dropped: '0' }));
      await expect.poll(() => actions.count()).toBe(0);
      expect(d.ctx.services.sql.dead!.list()).toEqual([]);
      // the audit log writes in the background (its queue is flushed on close): wait for the entry
      await expect.poll(() => d.ctx.audit.read()).toContain('dead_letters_discard');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
