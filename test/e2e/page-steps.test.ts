// Heavy pages render in steps (web/shell/in-steps.tsx): the part with the page's data first, the
// rest in later tasks. While a page is still stepping, a link to a block further down renders the
// rest and reaches it, and a save sends every field of the section, drawn yet or not.

import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { restrictionSchema, threadSchema } from '../../device/model/sections/redirect.ts';
import { api, consoleSuite, loginApi, openConsole, pageBody } from './support.ts';

/**
 * Clicks the menu entry of `page` and, as soon as `selector` is in the page (the first render, in
 * the microtasks after it: before any later step, which waits for a frame and a task, can have
 * run), runs `act` there (it may await microtasks, never a task); answers what `act` answered.
 */
const atFirstRender = <T>(p: import('@playwright/test').Page, page: string, selector: string, act: string): Promise<T> =>
  p.evaluate(`new Promise((resolve) => {
    const o = new MutationObserver(() => {
      const el = document.querySelector(${JSON.stringify(selector)});
      if (!el) return;
      o.disconnect();
      resolve((${act})(el));
    });
    o.observe(document.getElementById('main'), { childList: true, subtree: true });
    document.querySelector('nav a[data-page=${page}]').click();
  })`);

describe('pages in steps', () => {
  const suite = consoleSuite();

  it("an overview's link reaches a block the page has not rendered yet: the rest is rendered and the block's heading takes the focus", async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    await openConsole(page, suite.d, '/info');
    const atClick = await atFirstRender<{ stepping: boolean; heading: boolean }>(
      page,
      'com',
      '[data-page=com] [data-go=com-if-5]',
      `(link) => {
        const r = { stepping: !!document.querySelector('[data-page=com][data-stepping]'), heading: !!document.getElementById('com-if-5') };
        link.click();
        return r;
      }`,
    );
    // the page was still stepping, without the last interface's block
    expect(atClick).toEqual({ stepping: true, heading: false });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('com-if-5');
    await pageBody(page, 'com').locator('#com-plc').waitFor(); // and the rest is there
  });

  it("/port draws a thread's restrictions in two steps: the first five with the thread's status, then the rest", async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    // ten restrictions DT0-9, DT10-19 …, each field at its default otherwise
    const mapping = Array.from({ length: 10 }, (_, k) =>
      withDefaults(restrictionSchema, { area: 'DT', register_area_start: k * 10, register_area_end: k * 10 + 9 }),
    );
    const redirect = (await a.get('/config/pew_redirect')).body as { threads: unknown[] };
    const thread = withDefaults(threadSchema, { mapping });
    expect((await a.post('/config/pew_redirect', { ...redirect, threads: [thread] })).status).toBe(200);
    await openConsole(page, suite.d, '/info');
    // the rows of thread 1 and whether its status is drawn, each time the page changes, until the last step is in
    const seen = await page.evaluate(`new Promise((resolve) => {
      const seen = [];
      const o = new MutationObserver(() => {
        const rows = document.querySelectorAll('div[data-page=port] [data-thread="0"] tr.restriction').length;
        const status = !!document.querySelector('[data-page=port] [data-thread="0"] .link-status[data-status]');
        const now = rows + (status ? ' with status' : '');
        if (seen.at(-1) !== now) seen.push(now);
        if (!document.querySelector('div[data-page=port][data-stepping]') && document.querySelector('div[data-page=port]')) {
          o.disconnect();
          resolve(seen);
        }
      });
      o.observe(document.getElementById('main'), { childList: true, subtree: true, attributes: true });
      document.querySelector('nav a[data-page=port]').click();
    })`);
    expect(seen).toEqual(['0', '5 with status', '10 with status']);
    await expect.poll(() => pageBody(page, 'port').locator('[data-thread="0"] tr.restriction').count()).toBe(10);
  });

  it('a save while the page is still stepping sends every field of the section', async () => {
    const { page } = await suite.open();
    await loginApi(page, suite.d);
    const a = await api(page, suite.d);
    const stored = (await a.get('/config/pew_mqtt')).body as Record<string, unknown>;
    const poll = stored.plc_poll === 7 ? 8 : 7;
    await openConsole(page, suite.d, '/info');
    const posted = page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/config/pew_mqtt');
    const atSave = await atFirstRender<{ stepping: boolean; laterField: boolean; saveEnabled: boolean }>(
      page,
      'mqtt',
      '#f-pew_mqtt-plc_poll',
      `async (input) => {
        input.value = '${poll}';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        // the page bar's re-render that enables Save runs in the microtasks after the input
        for (let i = 0; i < 5; i++) await Promise.resolve();
        const save = document.querySelector('.page-bar [data-action=save]');
        const r = { stepping: !!document.querySelector('[data-page=mqtt][data-stepping]'), laterField: !!document.getElementById('f-pew_mqtt-broker_addr'), saveEnabled: !save.disabled };
        save.click();
        return r;
      }`,
    );
    expect(atSave).toEqual({ stepping: true, laterField: false, saveEnabled: true });
    // every field, the ones of the steps not drawn yet too, with the one typed
    expect((await posted).postDataJSON()).toEqual({ ...stored, plc_poll: poll });
    await expect.poll(async () => ((await a.get('/config/pew_mqtt')).body as Record<string, unknown>).plc_poll).toBe(poll);
  });
});
