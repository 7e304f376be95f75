// The pages a technician scans most, on a unit at work, at 1280 and 360 px: /info (the unit at
// work), /com and /port (their overview tables, seven restrictions as one table) and /log (the
// logger writing, its status). Each must fit its window (the reflow check) with its overview shown.
// `npm run screenshots` also saves their first screen as the pictures of docs/console.md (in the
// folder named by SCREENSHOTS); the suite leaves the pictures as they are.
//
// Against the REAL engine: the daemon in simulator mode with a virtual FP-XH on COM1, a redirect
// thread with seven restrictions and a logger file reading through COM1 every second.
import { join, resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { threadSchema } from '../../device/model/sections/redirect.ts';
import type { SerialFraming } from '../../sim/wire.ts';
import { connector, enableCom1, freePort, liveConsoleSuite, mewAsk, serialPlc } from './live-plc.ts';
import { loginApi, openConsole, overflow, pageBody, WAIT_MS } from './support.ts';

const FRAMING: SerialFraming = { baud: 115200, bits: 8, parity: 'odd', stopbits: 1 };
const wire = serialPlc('FP-XH', FRAMING);
const OUT = process.env.SCREENSHOTS ? resolve(process.env.SCREENSHOTS) : undefined;
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true },
] as const;
/** what each page shows once its live parts have answered */
const READY: Record<string, string> = {
  info: '[data-block=service-run] [data-link-run="0"] [data-state=up]',
  com: '[data-overview=com] [data-overview-interface="0"] [data-state=up]',
  port: '[data-overview=port] [data-overview-thread="0"] [data-state=listening]',
  log: '[data-block=log-status] [data-status=ok]',
};

describe('the pages of the docs, on a unit at work, at 1280 and 360 px', () => {
  const suite = liveConsoleSuite({ COM1: connector(wire) });

  beforeAll(async () => {
    await enableCom1(suite.d, FRAMING, 300);
    const c = await suite.d.admin();
    const port = await freePort();
    const rule = (area: string, start: number, end: number, read_write: string) => ({
      type: 0,
      area,
      register_area_start: start,
      register_area_end: end,
      register_area_mapped: 0,
      read_write,
    });
    const mapping = [
      rule('DT', 0, 99, 'RO'),
      rule('DT', 100, 199, 'R/W'),
      rule('DT', 1000, 1099, 'BLK'),
      rule('WR', 0, 9, 'RO'),
      rule('WY', 0, 9, 'R/W'),
      rule('LD', 0, 49, 'RO'),
      rule('FL', 0, 99, 'RO'),
    ];
    expect((await c.post('/config/pew_redirect', { threads: [withDefaults(threadSchema, { port, service: 0, mapping })] })).status).toBe(200);
    await suite.d.ctx.redirects.settled();
    expect(await mewAsk(port, { cmd: 'RD', area: 'DT', start: 0, count: 1 })).toMatch(/^%EE\$RD/);
    const point = withDefaults(recordSchema, { id: 1, name: 'level', area: 1, reg_addr: '100', type: 1 });
    const file = withDefaults(logFileSchema, { id: 1, name: 'tank', interface: 0, trigger: 1, cycle: 1, delay_store: 1, records: [point] });
    const log = { ...(withDefaults(logSchema, {}) as Record<string, unknown>), enable_log: true, log_def: [file] };
    const r = await c.post('/config/pew_log', log);
    expect(r.status, r.text).toBe(200);
  });

  async function shot(page: Page, id: string, width: string): Promise<void> {
    await pageBody(page, id).locator(READY[id]!).first().waitFor({ timeout: WAIT_MS });
    expect((await overflow(page)).wider, `${id} at ${width}`).toEqual([]);
    if (OUT) await page.screenshot({ path: join(OUT, `${id}-${width}.png`) }); // the first screen: what a technician sees on opening the page
  }

  for (const w of WIDTHS) {
    it(`/info, /com, /port and /log at ${w.viewport.width} px`, async () => {
      const { name, ...opts } = w;
      const { page } = await suite.open(opts);
      await loginApi(page, suite.d);
      for (const id of ['info', 'com', 'port', 'log']) {
        await openConsole(page, suite.d, `/${id}`);
        await shot(page, id, name);
      }
    });
  }
});
