// The thread the console's first frame renders in (device/api/first-frame.ts starts it, gives it one
// page at a time, and ends it when a render passes its limit or after a while without pages). It
// runs the built renderer (web/first-frame.tsx, dist/web/first-frame.js) in a V8 context of its own
// whose document carries the start answers of the page's request and whose storage holds the
// browser's preferences from the cookie; the context has no network, no DOM and no timers and sees
// nothing of node. Its promises run right after each run (microtaskMode), so the whole start and
// render happen inside two synchronous runs. Nothing here limits a run: the daemon ends the thread
// (worker.terminate()) when a render takes too long, which tears this isolate down whole — vm's own
// timeout, stopping a run inside the daemon's isolate while the context's promise jobs ran, left
// node's async-context stack unbalanced and aborted the daemon at its next native callback (node
// issue 38503).
import { readFileSync } from 'node:fs';
import { type Context, createContext, Script } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { type FramePrefs, type FrameRoute, frameHashes, PREF_KEYS } from '../model/first-frame.ts';
import { START_ANSWERS_ID } from '../model/start-answers.ts';

/** What the render gives: the markup of `#app` and what the console set on the root element. */
export interface FirstFrame {
  html: string;
  lang: string;
  theme: string;
}

/** One page's render: the renderer's file and its stamp (size and time), the start answers (JSON text), the preferences and the route rendered. */
export interface RenderJob {
  path: string;
  stamp: string;
  answers: string;
  prefs: FramePrefs;
  route: FrameRoute;
}

/** What the thread posts: once that it is ready for pages, then one answer per job. */
export type RenderReply = { ready: true } | { frame: FirstFrame } | { error: string };

/** The browser the console's start code meets in the context: only what its start and first render touch. */
function browserGlobals(answers: string, prefs: FramePrefs, route: FrameRoute) {
  const hash = frameHashes(route)[0]!;
  const root = { lang: '', dataset: {} as Record<string, string> };
  const storage = new Map<string, string>([
    [PREF_KEYS.locale, prefs.locale],
    [PREF_KEYS.theme, prefs.theme],
    [PREF_KEYS.filter, prefs.filter],
  ]);
  const noop = () => undefined;
  // what a page's module adds to the document (its styles): an element nobody reads
  const element = () => ({ dataset: {}, style: {}, setAttribute: noop, append: noop, remove: noop });
  return {
    root,
    globals: {
      document: {
        documentElement: root,
        getElementById: (id: string) => (id === START_ANSWERS_ID ? { textContent: answers, remove: noop } : null),
        querySelector: () => null,
        createElement: element,
        head: { append: noop },
      },
      location: { hash, search: '', pathname: '/', href: `http://unit/${hash}` },
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
      // the settings pages copy a section before they edit it
      structuredClone,
    },
  };
}

/** the call that renders, in the context (web/first-frame.tsx leaves the markup in `firstFrame`) */
const RENDER = new Script('renderFirstFrame(location.hash)', { filename: 'first-frame-call.js' });

/**
 * The renderer of one build, compiled once, and the context it runs in. The script is one function
 * call holding every module of the console (an IIFE): each run of it makes the modules and their
 * state anew, so a run for one page sees nothing of the run before it. The context is kept (a new
 * V8 context per page is 0.15 MB more to collect each time); the browser objects are put on it
 * before each run and taken off after it.
 */
let compiled: { stamp: string; script: Script } | undefined;
let context: Context | undefined;

function render(job: RenderJob): FirstFrame {
  if (compiled?.stamp !== job.stamp) compiled = { stamp: job.stamp, script: new Script(readFileSync(job.path, 'utf8'), { filename: job.path }) };
  const { root, globals } = browserGlobals(job.answers, job.prefs, job.route);
  try {
    context ??= createContext({}, { microtaskMode: 'afterEvaluate' });
    // the browser's global names for the global object itself
    Object.assign(context, globals, { window: context, self: context });
    compiled.script.runInContext(context);
    RENDER.runInContext(context);
    const html: unknown = (context as { firstFrame?: unknown }).firstFrame;
    // nothing of the run stays reachable: its modules and the page's answers die young
    for (const key of [...Object.keys(globals), 'window', 'self', 'firstFrame', 'renderFirstFrame']) delete context[key];
    if (typeof html !== 'string') throw new Error('the render did not finish with the answers the page carries');
    return { html, lang: root.lang, theme: root.dataset.theme ?? '' };
  } catch (e) {
    // a run that failed halfway leaves nothing behind: the next one gets a new context
    context = undefined;
    throw e;
  }
}

const port = parentPort;
if (port) {
  port.on('message', (job: RenderJob) => {
    let reply: RenderReply;
    try {
      reply = { frame: render(job) };
    } catch (e) {
      reply = { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies RenderReply);
}
