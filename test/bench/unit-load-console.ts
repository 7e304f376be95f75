// The console beside the whole unit's load (unit-load.ts): cold loads of /#/info in chromium with the
// CPU throttled 4×, as console.ts times them (until the frame showing the page's data is rendered),
// by a returning browser (session and preferences cookie). The daemon serves the console from its
// default folder (dist/web, as `npm run build` makes it): buildConsole before the daemon starts.
import type { Browser } from '@playwright/test';
import { buildWeb } from '../../build/web.ts';
import { DEFAULT_WEB_DIR } from '../../device/api/static.ts';
import { launchBrowser } from '../support/chromium.ts';
import { RETURNING, timeToData } from './console.ts';

const INFO_READY = '[data-page=info] .facts';

export interface ConsoleLoads {
  /** `count` cold loads of /#/info one after the other: ms each */
  loads(count: number): Promise<number[]>;
  /** cold loads one after the other until `done` settles (at least one): ms each */
  loadsUntil(done: Promise<unknown>): Promise<number[]>;
  close(): Promise<void>;
}

/** The console as `npm run build` makes it, where the daemon serves it from. */
export const buildConsole = async (): Promise<void> => {
  await buildWeb({ outDir: DEFAULT_WEB_DIR });
};

/** The console of the daemon at `base` in a browser signed in with `sessionCookie`. */
export async function consoleLoads(base: string, sessionCookie: string): Promise<ConsoleLoads> {
  const browser: Browser = await launchBrowser();
  const one = () => timeToData(browser, `${base}/#/info`, [sessionCookie, RETURNING], INFO_READY);
  return {
    async loads(count) {
      const ms: number[] = [];
      for (let i = 0; i < count; i++) ms.push(await one());
      return ms;
    },
    async loadsUntil(done) {
      let over = false;
      void done.finally(() => (over = true)).catch(() => undefined);
      const ms: number[] = [];
      do ms.push(await one());
      while (!over);
      return ms;
    },
    close: () => browser.close(),
  };
}
