// The console's first frame, rendered by the daemon into index.html (device/api/first-frame.ts):
// what the daemon, the page and the console agree on. Shared by the daemon and the console.
//
// The route is in the address's hash, which the browser does not send: the console keeps the page it
// shows in its preferences cookie (PREFS_COOKIE), and the daemon renders the frame of that page
// (FRAME_ROUTES: the information page, where every session starts, and the pages a technician
// opens most by a bookmark or a reload), with that page's data in the start answers. A small script
// in the page shows that frame only when the hash names the frame's page and the screen is not
// narrow (the shell's layout differs there); otherwise the console renders as it always did (a
// bookmark to another page than the one last shown, a link from elsewhere). The console's
// preferences live in the browser's storage: the cookie is a copy of them, so that the daemon
// renders in the technician's language, theme and menu filter; without the cookie there is no frame.

/** The pages the daemon renders a first frame for (page ids of web/pages.ts). */
export const FRAME_ROUTES = ['info', 'com', 'port', 'log', 'mqtt', 'graphs'] as const;
export type FrameRoute = (typeof FRAME_ROUTES)[number];
/** The cookie's route while the console shows a page without a frame: the daemon renders none. */
export const NO_FRAME_ROUTE = 'other';
export type PrefsRoute = FrameRoute | typeof NO_FRAME_ROUTE;

export const isFrameRoute = (v: string): v is FrameRoute => (FRAME_ROUTES as readonly string[]).includes(v);

/** The hashes a route's frame is for: the page by its name, and for the information page also the console's start page. */
export const frameHashes = (route: FrameRoute): readonly string[] => (route === 'info' ? ['#/info', '', '#/'] : [`#/${route}`]);

/** The route a hash names when it is one with a frame (as frameHashes gives them), else NO_FRAME_ROUTE. */
export function routeOfHash(hash: string): PrefsRoute {
  return FRAME_ROUTES.find((r) => frameHashes(r).includes(hash)) ?? NO_FRAME_ROUTE;
}

/** The renderer's file beside index.html in the console's build (build/web.ts writes it, device/api/first-frame.ts runs it). */
export const FIRST_FRAME_FILE = 'first-frame.js';

/**
 * The files a deep link to each framed page needs beyond what index.html loads (the page's chunk and
 * its imports, `common`; the parts of the dictionary, by language), relative to the web folder:
 * build/frame-preloads.ts writes them beside index.html, and the daemon puts them into the page as
 * `<link rel="modulepreload">` for the cookie's route and language (device/api/frame-preloads.ts).
 */
export const FRAME_PRELOADS_FILE = 'frame-preloads.json';
export type FramePreloads = Record<string, { common: string[]; locales: Record<string, string[]> }>;

/** The width below which the menu folds behind ☰ (the breakpoint of web/styles/app.css, web/shell/narrow.ts). */
export const NARROW_QUERY = '(max-width: 760px)';

/** The console's element in index.html (web/index.html), empty until the console or the daemon fills it. */
export const APP_ELEMENT = '<div id="app"></div>';

/** The attribute of `#app` while it holds the daemon's frame, its value the frame's route; `show` on the root element once the page's script found it fits. */
export const FIRST_FRAME_ATTR = 'data-first-frame';
export const FIRST_FRAME_SHOW = 'show';

/**
 * The page with the frame names the console's script in this attribute of `#app` instead of loading
 * it with its `<script type="module">` (device/api/first-frame.ts), and the gate adds the script.
 * Not a `<link rel="modulepreload">` in the head: the browser fetched and compiled the script while
 * it read, laid out and painted the frame, and paired loads at CPU 4× showed the frame of /graphs
 * 26-66 ms later, /log 33-68, /com 50, with the console taking over no sooner (2026-12-05).
 */
export const START_SCRIPT_ATTR = 'data-start';

/** The console's script in index.html, as the build writes it (build/html.ts; `src` attribute-escaped). */
export const consoleScriptTag = (src: string): string => `<script type="module" src="${src}"></script>`;
/** consoleScriptTag in a page, its `src` as the first group: what the daemon moves into START_SCRIPT_ATTR */
export const CONSOLE_SCRIPT_TAG = /<script type="module" src="([^"]*)"><\/script>/;

/**
 * The page's list of the framed page's code and texts (FRAME_PRELOADS_FILE) beside the frame: a JSON
 * data element, which the gate turns into `<link rel="modulepreload">` links when it adds the
 * console's script, and only when the address is the framed page's. Links in the page itself made
 * the browser fetch and compile some 40 modules while it laid out and painted the frame: at CPU 4×
 * the frame of /com showed about 200 ms later (paired loads, 2026-12-03).
 */
export const FRAME_PRELOADS_ID = 'frame-preloads';

/**
 * The page's lists of the other framed pages' code and texts (FRAME_PRELOADS_FILE, in the cookie's
 * language, less what the page loads anyway), by route: a JSON data element the console turns into
 * `<link rel="modulepreload">` links once its first page is shown and the browser is idle
 * (web/api/idle-preloads.ts), so that a first move to one of those pages waits for no chunk, and
 * not for a second wave of the chunks a page's chunk imports. When the address names one of those
 * pages (a bookmark to /#/com while the cookie names /info), the gate adds that page's list with the
 * console's script: its chunks came in three waves after the console's start, 300 ms at CPU 4×.
 */
export const IDLE_PRELOADS_ID = 'idle-preloads';

/** A file of the build's preload lists: a script of the console's assets. */
export const PRELOAD_FILE = /^assets\/[\w.-]+\.js$/;

/**
 * The script that decides whether the frame is shown, and when the console's script runs: inline in
 * the page (the Content-Security-Policy names it by its hash, device/api/static.ts), so it costs no
 * request, and right after the frame, so the frame stays hidden while the browser reads it and shows
 * whole, in one layout (with the script before it, the browser laid out and painted the frame in
 * parts as they came: paired loads at CPU 4× showed /info about 100 ms later).
 *
 * Once the page is read (DOMContentLoaded, so the start answers after the gate are in the document),
 * it adds the console's script (START_SCRIPT_ATTR) as a module script: at once when the frame is not
 * shown or the page is in a background tab (which paints nothing until it is shown), else after the
 * frame's paint. In the first two cases it preloads the script as it comes (a `<link
 * rel="modulepreload">`, fetched and compiled while the browser reads the rest of the page); a
 * shown frame is painted first. A module script in the page runs before the browser's first rendering whenever it
 * has arrived by then (always, from a warm cache), and the frame's paint waited for the console's
 * modules to be made: 7-11 ms of the main thread at CPU 4× in traces of loads from a warm cache,
 * 7-28 ms from a cold one when the script came in time; now they are made after the paint.
 *
 * The gate reads the frame's route from `#app` (FIRST_FRAME_ATTR, one of FRAME_ROUTES, written by the
 * daemon): one script whatever the route, so the policy names one hash. After the console's script,
 * in a task of its own, it adds the preloads of the framed page's code and texts (FRAME_PRELOADS_ID)
 * when the address is that page's, shown or not (a narrow screen renders the same page), and when
 * the address names another framed page, that page's list among the idle preloads (IDLE_PRELOADS_ID).
 * Each link costs the main thread 2-4 ms at CPU 4× (some 40 for /com: 70-180 ms in one task), and the
 * console's script, asked for already, need not wait for them: a
 * bookmark to /#/com with the cookie on /info showed its data 908 → 824 ms, /#/log 928 → 873 (medians
 * of 14 and 10 paired loads, 2026-12-04).
 *
 * Made by a call marked pure: the console's bundle imports this module but not the gate, and so
 * leaves the gate's text out.
 */
export const FIRST_FRAME_GATE = /* @__PURE__ */ gateScript();

function gateScript(): string {
  const attr = JSON.stringify(FIRST_FRAME_ATTR);
  // frameHashes, written out for the page
  const hashes = '(r==="info"?["#/info","","#/"]:["#/"+r])';
  // the framed page's list when the address is that page's, else the list of the page the address names (none for another page)
  const preloads = `p=d.getElementById(fits?${JSON.stringify(FRAME_PRELOADS_ID)}:${JSON.stringify(IDLE_PRELOADS_ID)});try{let f=JSON.parse(p.textContent);if(!fits)f=f[location.hash.slice(2)]||[];for(const h of f)pre(h)}catch{}`;
  return `(()=>{const d=document,a=d.getElementById("app"),r=a&&a.getAttribute(${attr}),fits=!!r&&${hashes}.includes(location.hash),show=fits&&!matchMedia(${JSON.stringify(NARROW_QUERY)}).matches,now=!show||d.visibilityState!=="visible",src=a&&a.getAttribute(${JSON.stringify(START_SCRIPT_ATTR)});if(show)d.documentElement.setAttribute(${attr},${JSON.stringify(FIRST_FRAME_SHOW)});if(src){const pre=(h)=>{const l=d.createElement("link");l.rel="modulepreload";l.href=h;d.head.append(l)};if(now)pre(src);addEventListener("DOMContentLoaded",()=>{const start=()=>{const s=d.createElement("script");s.type="module";s.src=src;d.head.append(s);setTimeout(()=>{let ${preloads}},0)};if(now)start();else requestAnimationFrame(()=>setTimeout(start,0))})}})()`;
}

/**
 * The cookie with the console's preferences and the page it shows, as
 * `<language>.<theme>.<menu filter>.<route>`; a cookie of the first three alone (written before the
 * route was kept) names the information page.
 */
export const PREFS_COOKIE = 'console-prefs';

export interface FramePrefs {
  locale: string;
  theme: string;
  filter: string;
  route: PrefsRoute;
}

/** The keys the console keeps its preferences under in the browser's storage (web/state/prefs.ts); the daemon's renderer fills the same. */
export const PREF_KEYS = { locale: 'console.locale', theme: 'console.theme', filter: 'console.filter' } as const satisfies Record<
  Exclude<keyof FramePrefs, 'route'>,
  string
>;

const PART = /^[a-z][a-z-]{0,29}$/;

export const encodePrefs = (p: FramePrefs): string => `${p.locale}.${p.theme}.${p.filter}.${p.route}`;

/**
 * The preferences a cookie value names, or undefined when it is not three such names and a route
 * (one of FRAME_ROUTES or NO_FRAME_ROUTE), or the three names alone (the console checks each name
 * against its choices).
 */
export function parsePrefs(value: string | undefined): FramePrefs | undefined {
  const parts = value?.split('.');
  if (!parts || (parts.length !== 3 && parts.length !== 4) || !parts.every((p) => PART.test(p))) return undefined;
  const [locale, theme, filter, route = 'info'] = parts as [string, string, string, string?];
  if (route !== NO_FRAME_ROUTE && !isFrameRoute(route)) return undefined;
  return { locale, theme, filter, route };
}
