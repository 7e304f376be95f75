// The console's first frame, rendered by the daemon (device/model/first-frame.ts says what for and
// when it shows): build/web.ts writes the console's own start and App as one script beside
// index.html (web/first-frame.tsx), and the daemon runs that script anew for each page it renders,
// in a V8 context of its own. The context's document carries the start answers just made for this
// request and its storage the browser's preferences from the cookie; it has no network, no DOM and
// no timers. Each run makes the console's modules anew: nothing of one session's data stays for the
// next, and the daemon's own globals are never touched. Any failure, or a render that takes longer
// than RENDER_LIMIT_MS, gives no frame: the page goes out as before and the console renders itself.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type Context, createContext, Script } from 'node:vm';
import {
  APP_ELEMENT,
  CONSOLE_SCRIPT_TAG,
  FIRST_FRAME_ATTR,
  FIRST_FRAME_FILE,
  FIRST_FRAME_GATE,
  FIRST_FRAME_HASH,
  type FramePrefs,
  PREF_KEYS,
  START_LINK_ATTR,
} from '../model/first-frame.ts';
import { START_ANSWERS_ID } from '../model/start-answers.ts';

/** the longest a render may run; it takes about 5 ms on a PC */
export const RENDER_LIMIT_MS = 500;

/** What the render gives: the markup of `#app` and what the console set on the root element. */
export interface FirstFrame {
  html: string;
  lang: string;
  theme: string;
}

/** The browser the console's start code meets in the context: only what its start and first render touch. */
function browserGlobals(answers: string, prefs: FramePrefs) {
  const root = { lang: '', dataset: {} as Record<string, string> };
  const storage = new Map<string, string>([
    [PREF_KEYS.locale, prefs.locale],
    [PREF_KEYS.theme, prefs.theme],
    [PREF_KEYS.filter, prefs.filter],
  ]);
  const noop = () => undefined;
  return {
    root,
    globals: {
      document: {
        documentElement: root,
        getElementById: (id: string) => (id === START_ANSWERS_ID ? { textContent: answers, remove: noop } : null),
        querySelector: () => null,
      },
      location: { hash: FIRST_FRAME_HASH, search: '', pathname: '/', href: `http://unit/${FIRST_FRAME_HASH}` },
      history: { state: null, replaceState: noop, pushState: noop, back: noop, forward: noop, go: noop },
      navigator: { language: prefs.locale },
      localStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: noop, removeItem: noop },
      matchMedia: () => ({ matches: false, addEventListener: noop, removeEventListener: noop }),
      addEventListener: noop,
      removeEventListener: noop,
      dispatchEvent: () => true,
      // what would come later in a browser (a timer, an idle callback, a request) never comes here:
      // the render is what the answers give at once
      setTimeout: () => 0,
      clearTimeout: noop,
      setInterval: () => 0,
      clearInterval: noop,
      requestAnimationFrame: () => 0,
      cancelAnimationFrame: noop,
      requestIdleCallback: () => 0,
      cancelIdleCallback: noop,
      fetch: () => Promise.reject(new TypeError('no network while the first frame renders')),
      console: { log: noop, info: noop, warn: noop, error: noop, debug: noop },
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
      AbortController,
      performance,
    },
  };
}

/**
 * The renderer of one build: its script, compiled once, and the context it runs in. The script is
 * one function call holding every module of the console (an IIFE): each run of it makes the modules
 * and their state anew, so a run for one page sees nothing of the run before it. The context is
 * kept (a new V8 context per page is 0.15 MB more to collect each time); the browser objects are
 * put on it before each run and taken off after it.
 */
interface Loaded {
  stamp: string;
  script: Script;
  context?: Context;
}

/** the call that renders, in the context (web/first-frame.tsx leaves the markup in `firstFrame`) */
const RENDER = new Script('renderFirstFrame(location.hash)', { filename: 'first-frame-call.js' });

export class FirstFrameRenderer {
  private readonly path: string;
  private loaded: Promise<Loaded | undefined> | undefined;
  /** the last failure's message, reported once until another one comes */
  private lastFailure = '';

  constructor(
    webDir: string,
    private readonly onFailure: (message: string) => void = () => undefined,
  ) {
    this.path = join(webDir, FIRST_FRAME_FILE);
  }

  /** The renderer, compiled again when `npm run build` replaced it; undefined when the build has none. */
  private async load(): Promise<Loaded | undefined> {
    const info = await stat(this.path).catch(() => undefined);
    if (!info) return undefined;
    const stamp = `${info.size}:${info.mtimeMs}`;
    const hit = await this.loaded;
    if (hit?.stamp === stamp) return hit;
    this.loaded = readFile(this.path, 'utf8').then(
      (code) => ({ stamp, script: new Script(code, { filename: this.path }) }),
      () => undefined,
    );
    return this.loaded;
  }

  /**
   * The first frame for a browser with these start answers (their JSON text) and preferences;
   * undefined when there is none. The context runs its promises itself, right after each run
   * (microtaskMode), so the whole start and render happen inside two synchronous runs, each stopped
   * after RENDER_LIMIT_MS: no other request's code runs between them, and a renderer that loops
   * cannot hold the daemon.
   */
  async render(answers: string, prefs: FramePrefs): Promise<FirstFrame | undefined> {
    const loaded = await this.load();
    if (!loaded) return undefined;
    try {
      const { root, globals } = browserGlobals(answers, prefs);
      loaded.context ??= createContext({}, { microtaskMode: 'afterEvaluate' });
      const context = loaded.context;
      // the browser's global names for the global object itself
      Object.assign(context, globals, { window: context, self: context });
      loaded.script.runInContext(context, { timeout: RENDER_LIMIT_MS });
      RENDER.runInContext(context, { timeout: RENDER_LIMIT_MS });
      const html: unknown = (context as { firstFrame?: unknown }).firstFrame;
      // nothing of the run stays reachable: its modules and the page's answers die young
      for (const key of [...Object.keys(globals), 'window', 'self', 'firstFrame', 'renderFirstFrame']) delete context[key];
      if (typeof html !== 'string') throw new Error('the render did not finish with the answers the page carries');
      return { html, lang: root.lang, theme: root.dataset.theme ?? '' };
    } catch (e) {
      // a run stopped halfway leaves nothing behind: the next one gets a new context
      loaded.context = undefined;
      const message = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      if (message !== this.lastFailure) this.onFailure(message);
      this.lastFailure = message;
      return undefined;
    }
  }
}

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The page with the frame in `#app` (marked, and hidden until the gate after it finds it fits), the
 * console's script as a preload the gate runs (START_LINK_ATTR), and the root element's language and
 * theme as the console set them; the page as it is when its template has no empty `#app`.
 */
export function withFirstFrame(html: string, frame: FirstFrame): string {
  if (!html.includes(APP_ELEMENT)) return html;
  const page = html
    .replace(CONSOLE_SCRIPT_TAG, (_, src: string) => `<link rel="modulepreload" href="${src}" ${START_LINK_ATTR}>`)
    .replace(APP_ELEMENT, () => `<div id="app" ${FIRST_FRAME_ATTR}>${frame.html}</div><script>${FIRST_FRAME_GATE}</script>`);
  return page.replace(/<html\b[^>]*>/, (tag) =>
    tag
      .replace(/\slang="[^"]*"/, (m) => (frame.lang ? ` lang="${attr(frame.lang)}"` : m))
      .replace(/\sdata-theme="[^"]*"/, (m) => (frame.theme ? ` data-theme="${attr(frame.theme)}"` : m)),
  );
}
