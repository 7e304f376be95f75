// The status part of /log (docs/logger.md "No silent deletion"): on a small temp volume (a 3 MiB
// tmpfs) the logger deletes the two oldest log files to make room; the page shows the low-memory
// state and each deleted file by name in English, German and French, the administrator
// acknowledges, and the status is ok again. The user role sees the notices but cannot acknowledge.
import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogStatus } from '../../device/model/log-status.ts';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { until } from '../integration/logger-rig.ts';
import { mountSmallVolume, type SmallVolume } from '../support/tmpfs.ts';
import { consoleSuite, de, en, expectNotice, expectText, fill, fr, loginApi, openConsole, pageBody, USER } from './support.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const OLD = ['old_a.csv', 'old_b.csv', 'old_c.csv'];

describe('the logger status on /log', () => {
  const suite = consoleSuite();
  let vol: SmallVolume;

  beforeAll(async () => {
    vol = await mountSmallVolume(join(suite.d.dataDir, 'volumes', 'temp'), 3 * MiB);
    const dir = join(vol.dir, 'log');
    await mkdir(dir, { recursive: true });
    for (const [i, name] of OLD.entries()) {
      await writeFile(join(dir, name), Buffer.alloc(128 * KiB, 0x41));
      await utimes(join(dir, name), new Date(2020 + i, 0, 1), new Date(2020 + i, 0, 1));
    }
    await vol.leaveFree(MiB - 200 * KiB); // 200 KiB short of the 1 MiB limit: two old files are enough
    const point = withDefaults(recordSchema, { id: 1, name: 'v', area: 1, reg_addr: '500', type: 1 }) as LogRecord;
    const file = withDefaults(logFileSchema, { id: 1, name: 'tank', trigger: 1, cycle: 1, delay_store: 1, records: [point] }) as LogFile;
    const c = await suite.d.admin();
    const r = await c.post('/config/pew_log', {
      ...(withDefaults(logSchema, {}) as Record<string, unknown>),
      enable_log: true,
      storage: 2,
      delete_old_files: true,
      log_def: [file],
    });
    expect(r.status, r.text).toBe(200);
    await until(() => (suite.d.ctx.logger.status() as LogStatus).notices.deletedCount === 2, 30_000, 'the two oldest files deleted');
  });
  afterAll(async () => {
    const c = await suite.d.admin();
    await c.post('/config/pew_log', { ...(withDefaults(logSchema, {}) as Record<string, unknown>), enable_log: false });
    await suite.d.ctx.logger.settled();
    await vol?.unmount();
  });

  const block = (page: Page) => pageBody(page, 'log').locator('[data-block=log-status]');

  async function openCp(locale: string, cred?: typeof USER) {
    const cp = await suite.open({ locale });
    await loginApi(cp.page, suite.d, cred);
    await openConsole(cp.page, suite.d, '/log');
    await block(cp.page).locator('[data-status=ok]').waitFor();
    return cp;
  }
  const open = async (locale: string, cred?: typeof USER): Promise<Page> => (await openCp(locale, cred)).page;

  it.each([
    ['en-GB', en],
    ['de-DE', de],
    ['fr-FR', fr],
  ] as const)('shows the deletions by name (%s)', async (locale, dict) => {
    const t = dict.logger.status;
    const page = await open(locale);
    await expectText(block(page).locator('h2'), t.title);
    await expectText(block(page).locator('[data-item=state] [data-state]'), t.states.low_memory);
    // the daemon sends the reason as a code; the page words it in its language
    await expectText(
      block(page).locator('[data-item=state] [data-detail][data-reason=low_memory_deleted]'),
      fill(dict.errors.reasons.low_memory_deleted, { count: 2, names: 'old_a.csv, old_b.csv' }),
    );
    const deleted = block(page).locator('[data-notice=deleted]');
    await expectText(deleted.locator('p'), fill(t.deleted, { count: 2 }));
    expect(await deleted.locator('li[data-deleted]').evaluateAll((li) => li.map((e) => e.getAttribute('data-deleted')))).toEqual(['old_a.csv', 'old_b.csv']);
    expect(await deleted.locator('li[data-deleted="old_a.csv"]').textContent()).toMatch(
      new RegExp(
        `^${fill(t.deletedFile, { name: 'old_a.csv', at: 'X' })
          .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          .replace('X', '.+')}$`,
      ),
    );
    await expectText(block(page).locator('[data-action=acknowledge]'), t.acknowledge);
    await expectText(block(page).locator('tr[data-log-file=tank] td').first(), 'tank');
  });

  it('the user role cannot acknowledge; the administrator does, and the state is ok again', async () => {
    const viewer = await openCp('en-GB', USER);
    await block(viewer.page).locator('[data-notice=deleted]').waitFor();
    expect(await block(viewer.page).locator('[data-action=acknowledge]').isDisabled()).toBe(true);
    expect(viewer.errors).toEqual([]);
    await viewer.context.close();

    const page = await open('en-GB');
    await block(page).locator('[data-action=acknowledge]').click();
    await expectNotice(page, 'info', en.logger.status.acknowledged);
    await expectText(block(page).locator('[data-item=state] [data-state]'), en.logger.status.states.ok);
    expect(await block(page).locator('[data-notices]').count()).toBe(0);
    expect((suite.d.ctx.logger.status() as LogStatus).notices).toMatchObject({ deleted: [], deletedCount: 0 });
  });
});
