// The console's first frame, rendered by the daemon (device/model/first-frame.ts says what for and
// when it shows): build/web.ts writes the console's own start and App as one script beside
// index.html (web/first-frame.tsx), and the daemon runs that script anew for each page it renders,
// in a thread of its own (device/api/first-frame-worker.ts), in a V8 context whose document carries
// the start answers just made for this request and whose storage holds the browser's preferences
// from the cookie; it has no network, no DOM and no timers. Each run makes the console's modules
// anew: nothing of one session's data stays for the next, and the daemon's own globals are never
// touched. The daemon's thread never waits for a render: it posts the page's answers and serves on.
// Any failure, or a render that takes longer than RENDER_LIMIT_MS, gives no frame: the page goes
// out as before and the console renders itself; a render that passes the limit is stopped by ending
// its thread (worker.terminate(): the thread's isolate goes whole, nothing of it is left in the
// daemon's), and the next page gets a new one.
//
// Not vm's timeout in the daemon's isolate: stopping a run there while the context's promise jobs
// ran (microtaskMode 'afterEvaluate') left node's async-context stack unbalanced, and the daemon's
// next native callback aborted the process (`Assertion failed: (env_->execution_async_id()) == (0)`
// in InternalCallbackScope::Close, node issue 38503) whenever promise hooks were on.
//
// One render at a time: pages asked for while one renders wait their turn, up to MAX_WAITING; a
// page beyond that goes out at once without a frame, and a stop (a render past its limit, a thread
// that failed or ended) lets the waiting pages go without one too. The thread stays for the next
// page and is ended after IDLE_MS without one, so an idle daemon holds no second isolate.
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { build } from 'esbuild';
import {
  APP_ELEMENT,
  CONSOLE_SCRIPT_TAG,
  FIRST_FRAME_ATTR,
  FIRST_FRAME_FILE,
  FIRST_FRAME_GATE,
  type FramePrefs,
  type FrameRoute,
  START_SCRIPT_ATTR,
} from '../model/first-frame.ts';
import type { FirstFrame, RenderJob, RenderReply } from './first-frame-worker.ts';

export type { FirstFrame } from './first-frame-worker.ts';

/** the longest a render may run; it takes about 10 ms on a PC, about 45 ms on a quarter of a core (the thread warm) */
export const RENDER_LIMIT_MS = 500;
/** the longest a new thread may take until it is ready for pages (a safety net: it starts in about 70 ms on a PC, 300 ms on a quarter of a core) */
export const START_LIMIT_MS = 10_000;
/** the render's thread is ended after this long without a page */
export const IDLE_MS = 60_000;

/** How long a render and a new thread may take; the unit's are RENDER_LIMIT_MS and START_LIMIT_MS. */
export interface FrameLimits {
  renderMs: number;
  startMs: number;
}
export const FRAME_LIMITS: FrameLimits = { renderMs: RENDER_LIMIT_MS, startMs: START_LIMIT_MS };
/**
 * The thread's heap: a render needs a few MB; a small young generation keeps the warm thread's
 * memory down (about 21 MB of RSS instead of 28 with node's default), and a renderer that
 * allocates without end ends its thread (ERR_WORKER_OUT_OF_MEMORY) instead of growing the daemon.
 */
const THREAD_HEAP = { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 };
/** pages that may wait while another renders; more go out at once without a frame */
export const MAX_WAITING = 4;

/** The thread's module, by this name beside this file; build/node-bundle.ts makes it an entry of every daemon bundle. */
export const FRAME_WORKER = 'first-frame-worker';

let fromSources: Promise<URL> | undefined;

/**
 * The thread's module: in a bundle, `first-frame-worker.mjs` beside the bundle's files (the unit,
 * `npm run daemon`, the bench). From the sources (npm start through tsx, vitest) node 20 cannot load
 * the TypeScript file in a new thread (neither tsx's hooks nor vitest's reach it, and tsx's API
 * takes about a second to start there), so the module is bundled from its sources once per process
 * by esbuild (a devDependency, there wherever the sources run) and the thread loads it as a data: URL.
 */
function workerModule(): Promise<URL> {
  if (!import.meta.url.endsWith('.ts')) return Promise.resolve(new URL(`./${FRAME_WORKER}.mjs`, import.meta.url));
  fromSources ??= bundleFromSources().catch((e: unknown) => {
    fromSources = undefined;
    throw e;
  });
  return fromSources;
}

async function bundleFromSources(): Promise<URL> {
  // not an import: the daemon's bundle must not take esbuild in
  const esbuild = createRequire(import.meta.url)('esbuild') as { build: typeof build };
  const out = await esbuild.build({
    entryPoints: [fileURLToPath(new URL(`./${FRAME_WORKER}.ts`, import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  return new URL(`data:text/javascript,${encodeURIComponent(out.outputFiles[0]!.text)}`);
}

const messageOf = (e: unknown): string => (e instanceof Error ? `${e.name}: ${e.message}` : String(e));

/** One render thread: its replies, one at a time, each awaited with a time limit. */
class RenderThread {
  readonly worker: Worker;
  /** whether the thread still runs (false after an error or its exit) */
  alive = true;
  private pending: ((reply: RenderReply | Error) => void) | undefined;

  constructor(module: URL) {
    // no flags of the daemon's (a --require, --expose-gc, a loader): the thread needs none
    this.worker = new Worker(module, { execArgv: [], resourceLimits: THREAD_HEAP });
    this.worker.on('message', (reply: RenderReply) => this.pending?.(reply));
    this.worker.on('error', (e) => {
      this.alive = false;
      this.pending?.(e);
    });
    this.worker.on('exit', (code) => {
      this.alive = false;
      this.pending?.(new Error(`the render's thread ended (exit code ${code})`));
    });
    // never what keeps the daemon's process alive (a render's limit timer does while it runs);
    // after the listeners, as a 'message' listener refs the thread's port again
    this.worker.unref();
  }

  /** The thread's next reply; rejected when it fails or ends first, or with `late` after `ms`. */
  reply(ms: number, late: string): Promise<RenderReply> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(new Error(late)), ms);
      const settle = (reply: RenderReply | Error) => {
        clearTimeout(timer);
        this.pending = undefined;
        if (reply instanceof Error) reject(reply);
        else resolve(reply);
      };
      this.pending = settle;
    });
  }

  end(): void {
    this.alive = false;
    this.pending = undefined;
    void this.worker.terminate();
  }
}

interface Waiting {
  job: RenderJob;
  done: (frame: FirstFrame | undefined) => void;
}

export class FirstFrameRenderer {
  private readonly path: string;
  private thread: RenderThread | undefined;
  private readonly waiting: Waiting[] = [];
  private rendering = false;
  private idle: NodeJS.Timeout | undefined;
  /** the last failure's message, reported once until another one comes */
  private lastFailure = '';

  constructor(
    webDir: string,
    private readonly onFailure: (message: string) => void = () => undefined,
    private readonly idleMs = IDLE_MS,
    private readonly limits: FrameLimits = FRAME_LIMITS,
  ) {
    this.path = join(webDir, FIRST_FRAME_FILE);
  }

  /** the render thread's id while there is one (for tests and figures) */
  get threadId(): number | undefined {
    return this.thread?.alive ? this.thread.worker.threadId : undefined;
  }

  /**
   * The first frame of `route` for a browser with these start answers (their JSON text) and preferences;
   * undefined when there is none: the build has no renderer, the render failed or was stopped, or
   * MAX_WAITING pages already wait. The renderer is compiled again when `npm run build` replaced it.
   */
  async render(answers: string, prefs: FramePrefs, route: FrameRoute): Promise<FirstFrame | undefined> {
    const info = await stat(this.path).catch(() => undefined);
    if (!info?.isFile()) return undefined;
    if (this.rendering && this.waiting.length >= MAX_WAITING) return undefined;
    const job: RenderJob = { path: this.path, stamp: `${info.size}:${info.mtimeMs}`, answers, prefs, route };
    return new Promise((done) => {
      this.waiting.push({ job, done });
      this.next();
    });
  }

  /** Ends the thread now; pages waiting go without a frame. */
  close(): void {
    clearTimeout(this.idle);
    this.thread?.end();
    this.thread = undefined;
    for (const w of this.waiting.splice(0)) w.done(undefined);
  }

  private next(): void {
    if (this.rendering) return;
    const page = this.waiting.shift();
    if (!page) {
      this.idle = setTimeout(() => this.close(), this.idleMs).unref();
      return;
    }
    clearTimeout(this.idle);
    this.rendering = true;
    void this.run(page.job).then((frame) => {
      this.rendering = false;
      page.done(frame);
      this.next();
    });
  }

  private async run(job: RenderJob): Promise<FirstFrame | undefined> {
    try {
      if (!this.thread?.alive) {
        this.thread?.end();
        this.thread = new RenderThread(await workerModule());
        const ready = await this.thread.reply(this.limits.startMs, `the render's thread was not ready within ${this.limits.startMs} ms`);
        if (!('ready' in ready)) throw new Error("the render's thread did not start as expected");
      }
      this.thread.worker.postMessage(job);
      const reply = await this.thread.reply(this.limits.renderMs, `the render timed out after ${this.limits.renderMs} ms and was stopped`);
      if ('frame' in reply) return reply.frame;
      // the renderer failed; its thread is fine for the next page
      this.report('error' in reply ? reply.error : 'the render gave no answer');
    } catch (e) {
      // stopped, failed to start or ended: the thread goes, and the pages waiting behind this one
      // go without a frame rather than each wait for the same
      this.close();
      this.report(messageOf(e));
    }
    return undefined;
  }

  private report(message: string): void {
    if (message !== this.lastFailure) this.onFailure(message);
    this.lastFailure = message;
  }
}

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The page with the frame of `route` in `#app` (marked with its route, and hidden until the gate after it finds it fits), the
 * console's script named there for the gate to run (START_SCRIPT_ATTR; the page's own script tag
 * removed), and the root element's language and theme as the console set them; the page as it is
 * when its template has no empty `#app`.
 */
export function withFirstFrame(html: string, frame: FirstFrame, route: FrameRoute): string {
  // the script's source as the build wrote it into the tag, attribute-escaped already
  const src = CONSOLE_SCRIPT_TAG.exec(html)?.[1];
  if (!html.includes(APP_ELEMENT)) return html;
  const start = src === undefined ? '' : ` ${START_SCRIPT_ATTR}="${src}"`;
  const page = html
    .replace(CONSOLE_SCRIPT_TAG, '')
    .replace(APP_ELEMENT, () => `<div id="app" ${FIRST_FRAME_ATTR}="${route}"${start}>${frame.html}</div><script>${FIRST_FRAME_GATE}</script>`);
  return page.replace(/<html\b[^>]*>/, (tag) =>
    tag
      .replace(/\slang="[^"]*"/, (m) => (frame.lang ? ` lang="${attr(frame.lang)}"` : m))
      .replace(/\sdata-theme="[^"]*"/, (m) => (frame.theme ? ` data-theme="${attr(frame.theme)}"` : m)),
  );
}
