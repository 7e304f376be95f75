import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONSOLE_SCRIPT_TAG,
  consoleScriptTag,
  encodePrefs,
  FIRST_FRAME_ATTR,
  FIRST_FRAME_GATE,
  FIRST_FRAME_SHOW,
  FRAME_PRELOADS_ID,
  FRAME_ROUTES,
  frameHashes,
  IDLE_PRELOADS_ID,
  NARROW_QUERY,
  NO_FRAME_ROUTE,
  parsePrefs,
  routeOfHash,
  START_SCRIPT_ATTR,
} from './first-frame.ts';

const SRC = 'assets/chunk-ABC.js';
/** the preload of the console's script the gate adds when it runs the script at once */
const START_PRELOAD = { rel: 'modulepreload', href: SRC };

/**
 * Runs the gate as the page would, with this hash and screen, in a page whose `#app` holds the frame
 * of `route` (/info unless given; null: no frame's attribute) and names the console's script
 * (unless `link` is false) and whose tab is visible (unless `hidden`): what it set on the root
 * element, the module scripts it added to the head, and the page's next steps to run by hand.
 */
function gate(
  hash: string,
  narrow: boolean,
  opts: { link?: boolean; hidden?: boolean; route?: string | null; preloads?: string[]; idle?: Record<string, string[]> | string } = {},
) {
  const route = opts.route === undefined ? 'info' : opts.route;
  const attrs = new Map<string, string>();
  const added: { type: string; src: string }[] = [];
  const links: { rel: string; href: string }[] = [];
  const listeners = new Map<string, () => void>();
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const document = {
    documentElement: { setAttribute: (k: string, v: string) => attrs.set(k, v) },
    visibilityState: opts.hidden ? 'hidden' : 'visible',
    getElementById: (id: string) =>
      id === 'app'
        ? { getAttribute: (k: string) => (k === FIRST_FRAME_ATTR ? route : k === START_SCRIPT_ATTR && opts.link !== false ? SRC : null) }
        : id === FRAME_PRELOADS_ID && opts.preloads
          ? { textContent: JSON.stringify(opts.preloads) }
          : id === IDLE_PRELOADS_ID && opts.idle
            ? { textContent: typeof opts.idle === 'string' ? opts.idle : JSON.stringify(opts.idle) }
            : null,
    createElement: (tag: string) => ({ tag, type: '', src: '', rel: '', href: '' }),
    head: {
      append: (el: { tag: string; type: string; src: string; rel: string; href: string }) =>
        el.tag === 'link' ? links.push({ rel: el.rel, href: el.href }) : added.push({ type: `${el.tag}/${el.type}`, src: el.src }),
    },
  };
  const matchMedia = (q: string) => ({ matches: q === NARROW_QUERY && narrow });
  new Function('location', 'matchMedia', 'document', 'addEventListener', 'requestAnimationFrame', 'setTimeout', FIRST_FRAME_GATE)(
    { hash },
    matchMedia,
    document,
    (type: string, fn: () => void) => listeners.set(type, fn),
    (fn: () => void) => frames.push(fn),
    (fn: () => void, ms: number) => timers.push(ms === 0 ? fn : () => undefined),
  );
  const run = (list: (() => void)[]) => list.splice(0).forEach((f) => f());
  return {
    shown: attrs.get(FIRST_FRAME_ATTR),
    added,
    links,
    listening: [...listeners.keys()],
    /** the page is read: DOMContentLoaded */
    read: () => listeners.get('DOMContentLoaded')?.(),
    /** the next rendering (the frame's paint), then the tasks after it */
    paint: () => {
      run(frames);
      run(timers);
    },
    /** the tasks the last step left to run */
    tasks: () => run(timers),
  };
}

describe('the first frame gate', () => {
  it('shows the frame for the information page, by name or as the start page, on a wide screen', () => {
    for (const hash of ['#/info', '', '#/']) expect(gate(hash, false).shown, hash).toBe(FIRST_FRAME_SHOW);
  });

  it('leaves it hidden for any other page, a page with a query, and on a narrow screen', () => {
    for (const hash of ['#/com', '#/info?x=1', '#/infos', '#info', '#/info/']) expect(gate(hash, false).shown, hash).toBeUndefined();
    expect(gate('#/info', true).shown).toBeUndefined();
  });

  it('shows the frame of another page only at that page’s hash, on a wide screen', () => {
    for (const route of FRAME_ROUTES.filter((r) => r !== 'info')) {
      expect(gate(`#/${route}`, false, { route }).shown, route).toBe(FIRST_FRAME_SHOW);
      for (const hash of ['#/info', '', '#/', `#/${route}?x=1`, `#/${route}/`, `#/${route === 'com' ? 'port' : 'com'}`])
        expect(gate(hash, false, { route }).shown, `${route} ${hash}`).toBeUndefined();
      expect(gate(`#/${route}`, true, { route }).shown, route).toBeUndefined();
    }
  });

  it('agrees with frameHashes and routeOfHash, which the console and the daemon use', () => {
    for (const route of FRAME_ROUTES)
      for (const hash of ['#/info', '', '#/', '#/com', '#/port', '#/log', '#/mqtt', '#/graphs', '#/users', '#/com?x'])
        expect(gate(hash, false, { route }).shown === FIRST_FRAME_SHOW, `${route} ${hash}`).toBe(frameHashes(route).includes(hash));
    expect(FRAME_ROUTES.map((r) => frameHashes(r).map(routeOfHash))).toEqual(FRAME_ROUTES.map((r) => frameHashes(r).map(() => r)));
    for (const hash of ['#/users', '#/com?x=1', '#/info/', '#/wizard_com']) expect(routeOfHash(hash), hash).toBe(NO_FRAME_ROUTE);
  });

  it('shows nothing without a frame in the page', () => {
    expect(gate('#/info', false, { route: null }).shown).toBeUndefined();
  });

  it('runs the console’s script after the shown frame is painted, never before the page is read', () => {
    const g = gate('#/info', false);
    expect(g.added).toEqual([]);
    g.paint(); // a rendering before the page is read (the browser paints while it reads) starts nothing
    expect(g.added).toEqual([]);
    g.read();
    expect(g.added).toEqual([]);
    g.paint();
    expect(g.added).toEqual([{ type: 'script/module', src: SRC }]);
    // nothing fetched or compiled beside the frame's layout and paint: no preload of the script either
    g.tasks();
    expect(g.links).toEqual([]);
  });

  it('runs it once the page is read when the frame is not shown, or the tab is in the background', () => {
    for (const g of [gate('#/com', false), gate('#/info', true), gate('#/info', false, { hidden: true })]) {
      expect(g.added).toEqual([]);
      // preloaded as it comes, while the browser reads the rest of the page
      expect(g.links).toEqual([START_PRELOAD]);
      g.read();
      expect(g.added).toEqual([{ type: 'script/module', src: SRC }]);
      g.paint();
      expect(g.added).toHaveLength(1);
    }
  });

  it('preloads the framed page’s code and texts after the console’s script, in a task of its own, when the address is that page’s, on any screen', () => {
    const preloads = ['assets/chunk-A.js', 'assets/chunk-B.js'];
    for (const narrow of [false, true]) {
      const g = gate('#/com', narrow, { route: 'com', preloads });
      g.read();
      if (!narrow) {
        expect(g.added).toEqual([]);
        g.paint();
      }
      expect(g.added).toEqual([{ type: 'script/module', src: SRC }]);
      // the narrow screen's frame is not shown: the script was preloaded as it came
      const start = narrow ? [START_PRELOAD] : [];
      expect(g.links).toEqual(start);
      g.tasks();
      expect(g.links).toEqual([...start, ...preloads.map((href) => ({ rel: 'modulepreload', href }))]);
    }
    // another page's address: the console loads that page, not these
    const g = gate('#/port', false, { route: 'com', preloads });
    g.read();
    g.tasks();
    expect(g.added).toHaveLength(1);
    expect(g.links).toEqual([START_PRELOAD]);
  });

  it('preloads the code and texts of the framed page the address names when the frame is another’s (a bookmark to /com, the cookie on /info), after the console’s script', () => {
    const idle = { com: ['assets/chunk-C.js', 'assets/chunk-T.js'], log: ['assets/chunk-L.js'] };
    const g = gate('#/com', false, { route: 'info', idle });
    g.read();
    expect(g.added).toEqual([{ type: 'script/module', src: SRC }]);
    g.tasks();
    expect(g.links).toEqual([START_PRELOAD, ...idle.com.map((href) => ({ rel: 'modulepreload', href }))]);
    // a page without a list, another address, a list that is not as the daemon writes it: only the script
    for (const [hash, list] of [
      ['#/users', idle],
      ['#/com?x=1', idle],
      ['#/com', '[not json'],
      ['#/com', '{"com":5}'],
    ] as const) {
      const other = gate(hash, false, { route: 'info', idle: list });
      other.read();
      other.tasks();
      expect(other.links, `${hash} ${JSON.stringify(list)}`).toEqual([START_PRELOAD]);
      expect(other.added, hash).toEqual([{ type: 'script/module', src: SRC }]);
    }
  });

  it('starts nothing in a page whose script is its own (no script named)', () => {
    for (const g of [gate('#/info', false, { link: false }), gate('#/com', false, { link: false })]) {
      expect(g.listening).toEqual([]);
      expect(g.links).toEqual([]);
    }
    expect(gate('#/info', false, { link: false }).shown).toBe(FIRST_FRAME_SHOW);
  });

  it('finds the console’s script tag as the build writes it, with its source as written', () => {
    for (const src of ['assets/chunk-ABC.js', 'assets/a$&amp;b.js'])
      expect(CONSOLE_SCRIPT_TAG.exec(`<head>\n${consoleScriptTag(src)}\n</head>`)?.[1]).toBe(src);
  });

  it('uses the stylesheet’s own breakpoint for a narrow screen', () => {
    const css = readFileSync(new URL('../../web/styles/app.css', import.meta.url), 'utf8');
    expect(css).toContain(`@media ${NARROW_QUERY}`);
  });
});

describe('the preferences cookie', () => {
  it('carries language, theme, menu filter and route both ways', () => {
    const prefs = { locale: 'de', theme: 'material-ocean', filter: 'enabled', route: 'com' } as const;
    expect(encodePrefs(prefs)).toBe('de.material-ocean.enabled.com');
    expect(parsePrefs(encodePrefs(prefs))).toEqual(prefs);
    for (const route of [...FRAME_ROUTES, NO_FRAME_ROUTE]) expect(parsePrefs(`en.default.all.${route}`)?.route).toBe(route);
  });

  it('a cookie of three names, as the console wrote it before it kept the route, means the information page', () => {
    expect(parsePrefs('en.default.all')).toEqual({ locale: 'en', theme: 'default', filter: 'all', route: 'info' });
  });

  it('gives nothing for a value that is not three plain names and a known route', () => {
    for (const v of [
      undefined,
      '',
      'en',
      'en.default',
      'en.default.all.x',
      'en.default.all.users',
      'en.default.all.com.port',
      'en.default.all.COM',
      'en.default.all.',
      'en.default.all.com ',
      'en.default.all.constructor',
      'EN.default.all',
      'en..all',
      'en.<b>.all',
      'en.default.all ',
      `en.${'a'.repeat(31)}.all`,
      '1n.default.all',
    ])
      expect(parsePrefs(v), String(v)).toBeUndefined();
  });
});
