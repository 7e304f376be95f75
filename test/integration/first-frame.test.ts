// The console's first frame rendered by the daemon (device/api/first-frame.ts, web/first-frame.tsx):
// for a signed-in browser that sent its preferences, index.html carries the information page with
// its data in the browser's language and theme, behind the inline gate the Content-Security-Policy
// names by its hash; one session's frame holds nothing of another's; text from the unit is escaped;
// without a session or the preferences, or with a renderer that fails, waits or loops, the page is the one
// it was before, and the daemon serves on.

import { createHash } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb } from '../../build/web.ts';
import { FirstFrameRenderer } from '../../device/api/first-frame.ts';
import {
  FIRST_FRAME_ATTR,
  FIRST_FRAME_FILE,
  FIRST_FRAME_GATE,
  FRAME_PRELOADS_FILE,
  FRAME_PRELOADS_ID,
  type FramePreloads,
  IDLE_PRELOADS_ID,
  NO_FRAME_ROUTE,
  PREFS_COOKIE,
  START_SCRIPT_ATTR,
} from '../../device/model/first-frame.ts';
import { withDefaults } from '../../device/model/section.ts';
import { logSchema } from '../../device/model/sections/log.ts';
import { logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { START_ANSWERS_ID, SYSTEM_INFO_PATH } from '../../device/model/start-answers.ts';
import { COM_STATUS_PATH } from '../../web/api/com.ts';
import { loadedLocales } from '../../web/i18n/i18n-util.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { loadFullLocales } from '../support/locales.ts';

loadFullLocales();
const { en, de } = loadedLocales;

// the frame, marked with its route and naming the console's script for the gate
const FRAME = new RegExp(`<div id="app" ${FIRST_FRAME_ATTR}="(\\w+)" ${START_SCRIPT_ATTR}="assets/[\\w-]+\\.js">(.*?)</div><script>`, 's');
const PRELOAD = /<link rel="modulepreload" href="([^"]+)">/g;
const PRELOAD_LIST = new RegExp(`<script type="application/json" id="${FRAME_PRELOADS_ID}">(.*?)</script>`, 's');
const MODULE_SCRIPT = /<script type="module" src="([^"]+)"><\/script>/;
const IDLE_LIST = new RegExp(`<script type="application/json" id="${IDLE_PRELOADS_ID}">(.*?)</script>`, 's');
const ANSWERS = new RegExp(`<script type="application/json" id="${START_ANSWERS_ID}">(.*?)</script>`, 's');

/** The page a browser with this cookie gets: its text, the frame's markup (undefined without one) and the root element's tag. */
async function open(d: TestDaemon, cookie: string) {
  const res = await fetch(`${d.url}/`, { headers: { cookie } });
  const text = await res.text();
  const m = FRAME.exec(text);
  const list = PRELOAD_LIST.exec(text)?.[1];
  return {
    res,
    text,
    route: m?.[1],
    frame: m?.[2],
    root: /<html[^>]*>/.exec(text)?.[0],
    /** the preload links in the page */
    preloads: [...text.matchAll(PRELOAD)].map((l) => l[1]!),
    /** the list the gate makes links of once the frame is painted */
    preloadList: list === undefined ? undefined : (JSON.parse(list) as string[]),
  };
}
const prefs = (v: string) => `${PREFS_COOKIE}=${v}`;

/**
 * The render limits of the daemons and renderers here that are not about the limits: a cold render
 * thread on a busy machine takes longer than the unit's 500 ms, and these tests are about the frame's
 * contents (as the browser tests' CONSOLE_TEST_FRAME_LIMITS).
 */
const FRAME_LIMITS_UNHURRIED = { renderMs: 30_000, startMs: 60_000 };

describe("the daemon's first frame", () => {
  let tmp = '';
  let web = '';
  let d: TestDaemon;
  let admin = '';

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'first-frame-'));
    web = join(tmp, 'web');
    await buildWeb({ outDir: web });
    d = await startTestDaemon({ webDir: web, frameLimits: FRAME_LIMITS_UNHURRIED });
    admin = (await d.admin()).cookie;
  }, 120_000);
  afterAll(async () => {
    await d?.stop();
    await rm(tmp, { recursive: true, force: true });
  });

  it('signed in with preferences: the information page with its data, behind the gate the CSP allows', async () => {
    const { res, text, frame, root, route, preloads } = await open(d, `${admin}; ${prefs('en.default.all')}`);
    expect(res.status).toBe(200);
    expect(route).toBe('info');
    expect(preloads).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(frame).toBeDefined();
    expect(frame).toContain('data-page="info"');
    expect(frame).toContain('<dl class="facts">');
    expect(frame).toContain('communicator-sim'); // the host name, from the system information answer
    expect(frame).toContain(en.info!.versions as string);
    expect(frame).toContain('data-action="save-all"'); // the administrator's top bar
    expect(root).toBe('<html lang="en" data-theme="default">');
    // the console's script as the build wrote it, now named in `#app` for the gate to run once the frame is painted
    const built = MODULE_SCRIPT.exec(await readFile(join(web, 'index.html'), 'utf8'))?.[1];
    expect(built).toMatch(/^assets\/[\w-]+\.js$/);
    // the gate comes right after the frame, and the policy allows exactly that script
    expect(text).toContain(`<div id="app" ${FIRST_FRAME_ATTR}="info" ${START_SCRIPT_ATTR}="${built}">${frame}</div><script>${FIRST_FRAME_GATE}</script>`);
    const hash = createHash('sha256').update(FIRST_FRAME_GATE).digest('base64');
    expect(res.headers.get('content-security-policy')).toContain(`script-src 'self' 'sha256-${hash}';`);
    // the answers still come with the page, for the console's own first render
    expect(ANSWERS.test(text)).toBe(true);
    // and nothing in the page fetches or compiles it beside the frame: no script tag, no preload
    expect(text).not.toContain('<script type="module"');
    expect(text).not.toMatch(/<link rel="modulepreload"/);
  });

  it("in the browser's language and theme, with its menu filter", async () => {
    const { frame, root } = await open(d, `${admin}; ${prefs('de.darcula.enabled')}`);
    expect(root).toBe('<html lang="de" data-theme="darcula">');
    expect(frame).toContain(de.info!.versions as string);
    expect(frame).not.toContain(`>${en.info!.versions as string}<`);
    expect(frame).toMatch(/<option selected value="enabled">/);
  });

  it("a viewer's frame carries nothing of the administrator's rendered before it", async () => {
    const viewer = (await d.user()).cookie;
    await open(d, `${admin}; ${prefs('en.default.all')}`);
    const { frame } = await open(d, `${viewer}; ${prefs('en.default.all')}`);
    expect(frame).toContain('data-page="info"');
    expect(frame).not.toContain('data-action="save-all"');
    expect(frame).toContain('data-role="user"');
    expect(frame).not.toContain('data-role="admin"');
  });

  it('no frame without a session, without the preferences or with a value that is not three names', async () => {
    for (const cookie of [
      prefs('en.default.all'),
      `sid=${'0'.repeat(32)}; ${prefs('en.default.all')}`,
      admin,
      `${admin}; ${prefs('en.default')}`,
      `${admin}; ${prefs('en.<b>.all')}`,
    ]) {
      const { res, text } = await open(d, cookie);
      expect(res.status, cookie).toBe(200);
      expect(text, cookie).toContain('<div id="app"></div>');
      expect(text, cookie).not.toContain(FIRST_FRAME_GATE);
      // the page runs its script itself
      expect(text, cookie).toMatch(MODULE_SCRIPT);
      expect(text, cookie).not.toContain(START_SCRIPT_ATTR);
    }
  });

  it("names the console does not know: the console's own defaults, as in a browser", async () => {
    const { frame, root } = await open(d, `${admin}; ${prefs('xx.nope.none')}`);
    expect(frame).toContain(en.info!.versions as string);
    expect(root).toBe('<html lang="en" data-theme="default">');
  });

  it("the cookie's route: that page's frame with its data from the start answers, and its code and texts for the gate to preload, in the cookie's language", async () => {
    const { frame, route, text, preloads: links, preloadList } = await open(d, `${admin}; ${prefs('de.default.all.com')}`);
    // none as links in the page: the browser would fetch and compile them while it paints the frame
    expect(links).toEqual([]);
    const preloads = preloadList ?? [];
    expect(route).toBe('com');
    expect(frame).toMatch(/<div[^>]*data-page="com"/);
    expect(frame).not.toMatch(/<div[^>]*data-page="info"/);
    const answers = JSON.parse(ANSWERS.exec(text)![1]!.replace(/\\u003c/g, '<')) as Record<string, { body: { links: { id: number; state: string }[] } }>;
    // the overview's link state of COM1 (interface id 1), as the com_status answer in the page says
    const com1 = answers[COM_STATUS_PATH]!.body.links.find((l) => l.id === 1)!;
    expect(frame).toMatch(new RegExp(`data-overview-interface="1">.*?data-state="${com1.state}"`, 's'));
    expect(frame).toContain(de.nav!.com as string);
    // the page's chunk and imports and the German texts, each a built file; none of what index.html loads already
    const built = JSON.parse(await readFile(join(web, FRAME_PRELOADS_FILE), 'utf8')) as FramePreloads;
    expect(preloads).toEqual([...built.com!.common, ...built.com!.locales.de!]);
    expect(preloads.length).toBeGreaterThan(10);
    const index = await readFile(join(web, 'index.html'), 'utf8');
    for (const f of preloads) {
      expect((await stat(join(web, f))).isFile(), f).toBe(true);
      expect(index, f).not.toContain(f);
    }
    expect(preloads.some((f) => built.com!.locales.en!.includes(f))).toBe(false);
  });

  it('each framed page: its frame with its data', async () => {
    const shows: Record<string, RegExp> = {
      // the unit's settings here have no thread and no log file: the page as it shows them
      port: /<div[^>]*data-page="port"/,
      log: /data-block="log-status".*?class="facts"/s,
      mqtt: /data-block="mqtt-status".*?class="facts"/s,
      graphs: /data-page="graphs".*?class="choose"/s,
    };
    for (const [r, shown] of Object.entries(shows)) {
      const { frame, route } = await open(d, `${admin}; ${prefs(`en.default.all.${r}`)}`);
      expect(route, r).toBe(r);
      expect(frame, r).toMatch(new RegExp(`<div[^>]*data-page="${r}"`));
      expect(frame, r).toMatch(shown);
    }
  });

  it("/log's frame is the page's first screen: the status and the general settings with their values; the log files and the points (two screens down) come with the console's next step", async () => {
    const other = await startTestDaemon({ webDir: web, frameLimits: FRAME_LIMITS_UNHURRIED });
    try {
      const c = await other.admin();
      const records = Array.from({ length: 100 }, (_, i) => withDefaults(recordSchema, { id: i + 1, name: `P${i}`, reg_addr: String(i * 2), type: 4 }));
      const log = {
        ...(withDefaults(logSchema, {}) as object),
        csv_separator: 'semicolon',
        log_def: [withDefaults(logFileSchema, { id: 1, name: 'big', records })],
      };
      expect((await c.post('/config/pew_log', log)).status).toBe(200);
      const { frame } = await open(other, `${c.cookie}; ${prefs('en.default.all.log')}`);
      expect(frame).toMatch(/data-block="log-status"/);
      // the general settings as stored: the logger off, the field separator chosen
      expect(frame).toMatch(/<input type="checkbox" id="f-pew_log-enable_log" name="enable_log"\/>/);
      expect(frame).toMatch(/<select id="f-pew_log-csv_separator"[^>]*>(<option [^>]*>[^<]*<\/option>)*<option selected value="semicolon">/);
      expect(frame).not.toMatch(/data-logfiles|data-points|<tr data-point=/);
    } finally {
      await other.stop();
    }
  });

  it("the other framed pages' code and texts, listed for the console to preload when idle: in the cookie's language, none of the page's own", async () => {
    const built = JSON.parse(await readFile(join(web, FRAME_PRELOADS_FILE), 'utf8')) as FramePreloads;
    const lists = async (cookie: string) => {
      const list = IDLE_LIST.exec((await open(d, cookie)).text)?.[1];
      return list === undefined ? undefined : (JSON.parse(list) as Record<string, string[]>);
    };
    const idle = async (cookie: string) => {
      const byRoute = await lists(cookie);
      return byRoute === undefined ? undefined : [...new Set(Object.values(byRoute).flat())];
    };
    // by route: each framed page's own list (a bookmark to it while the cookie names another page preloads that one)
    const byRoute = (await lists(`${admin}; ${prefs('en.default.all')}`)) ?? {};
    expect(Object.keys(byRoute).sort()).toEqual(['com', 'graphs', 'log', 'mqtt', 'port']);
    for (const r of ['com', 'port', 'log', 'mqtt', 'graphs'] as const) expect(byRoute[r], r).toEqual([...built[r]!.common, ...built[r]!.locales.en!]);
    const onInfo = (await idle(`${admin}; ${prefs('fr.default.all')}`)) ?? [];
    for (const r of ['com', 'port', 'log', 'mqtt', 'graphs'] as const)
      for (const f of [...built[r]!.common, ...built[r]!.locales.fr!]) expect(onInfo, `${r}: ${f}`).toContain(f);
    expect(new Set(onInfo).size).toBe(onInfo.length);
    expect(onInfo.some((f) => built.com!.locales.en!.includes(f))).toBe(false);
    // on /com: what /com loads with the frame is not listed again
    const onCom = (await idle(`${admin}; ${prefs('en.default.all.com')}`)) ?? [];
    const com = [...built.com!.common, ...built.com!.locales.en!];
    expect(onCom.filter((f) => com.includes(f))).toEqual([]);
    expect(onCom).toContain(built.log!.common[0]);
    // without a session, or without the preferences (no language known), none
    expect(await idle(prefs('en.default.all'))).toBeUndefined();
    expect(await idle(admin)).toBeUndefined();
  });

  it('a page without a frame (NO_FRAME_ROUTE): no frame and no preloads, the page runs its script itself', async () => {
    const { frame, text, preloads, preloadList } = await open(d, `${admin}; ${prefs(`en.default.all.${NO_FRAME_ROUTE}`)}`);
    expect(frame).toBeUndefined();
    expect(preloads).toEqual([]);
    expect(preloadList).toBeUndefined();
    expect(text).toMatch(MODULE_SCRIPT);
  });

  it('text from the unit is escaped, in the frame as in the console', async () => {
    const { text } = await open(d, admin);
    const answers = JSON.parse(ANSWERS.exec(text)![1]!.replace(/\\u003c/g, '<')) as Record<string, { body: { os: { hostname: string } } }>;
    answers[SYSTEM_INFO_PATH]!.body.os.hostname = '<img src=x onerror=alert(1)>';
    const renderer = new FirstFrameRenderer(web, undefined, undefined, FRAME_LIMITS_UNHURRIED);
    try {
      const frame = await renderer.render(JSON.stringify(answers), { locale: 'en', theme: 'default', filter: 'all', route: 'info' }, 'info');
      expect(frame?.html).toContain('&lt;img src=x onerror=alert(1)>');
      expect(frame?.html).not.toContain('<img');
    } finally {
      renderer.close();
    }
  });

  it('a renderer that throws, never finishes or loops: no frame, the page as before, one warning each, and the daemon serves on', async () => {
    // the renderer that throws and the one that never finishes answer at once; with the unit's
    // limits a busy machine could stop one of their runs as late, and that other warning between
    // two of theirs is a warning each: they run unhurried, the loop under the unit's limits
    for (const [name, code, warning, frameLimits] of [
      ['throws', 'throw new Error("broken renderer")', 'broken renderer', FRAME_LIMITS_UNHURRIED],
      ['waits', 'globalThis.renderFirstFrame = () => { new Promise(() => {}); }', 'did not finish', FRAME_LIMITS_UNHURRIED],
      ['loops', 'globalThis.renderFirstFrame = () => { for (;;) {} }', 'timed out', undefined],
    ] as const) {
      const dir = join(tmp, name);
      await cp(web, dir, { recursive: true });
      await writeFile(join(dir, FIRST_FRAME_FILE), code);
      const other = await startTestDaemon({ webDir: dir, ...(frameLimits ? { frameLimits } : {}) });
      try {
        const cookie = `${(await other.admin()).cookie}; ${prefs('en.default.all')}`;
        // the page comes (a renderer that loops or never finishes is stopped after its time limit;
        // unstopped, the page would never come and the test would run out of time)
        for (let i = 0; i < 2; i++) {
          const { res, text } = await open(other, cookie);
          expect(res.status, name).toBe(200);
          expect(text, name).toContain('<div id="app"></div>');
        }
        // without a frame the framed page's code and texts are links in the page itself
        const { preloads, preloadList } = await open(other, `${(await other.admin()).cookie}; ${prefs('en.default.all.com')}`);
        expect(preloads.length, name).toBeGreaterThan(10);
        expect(preloadList, name).toBeUndefined();
        const warnings = other.ctx.log.recent().filter((e) => e.msg.includes('first frame'));
        expect(warnings.length, name).toBe(1);
        expect(String(warnings[0]?.fields?.error), name).toContain(warning);
        expect((await other.client().get('/rest/api/v1/authentication')).status).toBe(401);
      } finally {
        await other.stop();
      }
    }
  });
});
