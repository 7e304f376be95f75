// The first frame's renderer (device/api/first-frame.ts) with hand-made renderers: a render that
// loops, synchronously or inside a promise job, is stopped at its limit without harm to the
// daemon's process; pages asked for at once render one at a time, each with its own answers, and
// the ones beyond MAX_WAITING go out without a frame; the thread is kept between pages and ended
// after its idle time. The console's real renderer is tested in test/integration/first-frame.test.ts.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_FRAME_FILE } from '../model/first-frame.ts';
import { FirstFrameRenderer, MAX_WAITING, RENDER_LIMIT_MS } from './first-frame.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('../../test/fixtures/frame-under-hooks.ts', import.meta.url));
const prefs = { locale: 'en', theme: 'default', filter: 'all', route: 'info' } as const;

/** renderers as web/first-frame.tsx makes them: `renderFirstFrame` leaves the markup in `firstFrame` */
const RENDERERS = {
  /** the page's start answers in the frame, after a promise job, as the console's start gives them */
  answers:
    'globalThis.renderFirstFrame = () => { Promise.resolve().then(() => { globalThis.firstFrame = `<p>${document.getElementById("start-answers").textContent}</p>`; }); };',
  loopsInPromiseJob: 'globalThis.renderFirstFrame = () => { Promise.resolve().then(() => { for (;;) {} }); };',
  loops: 'globalThis.renderFirstFrame = () => { for (;;) {} };',
  throws: 'globalThis.renderFirstFrame = () => { throw new Error("broken renderer"); };',
  allocates: 'globalThis.renderFirstFrame = () => { const kept = []; for (;;) kept.push(new Array(1000).fill(kept.length)); };',
} as const;

let tmp = '';
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'first-frame-renderer-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A web folder holding `renderer` as the build's first-frame.js. */
async function webWith(name: string, renderer: string): Promise<string> {
  const dir = join(tmp, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, FIRST_FRAME_FILE), renderer);
  return dir;
}

describe('a render stopped at its limit while promise hooks are on', () => {
  for (const name of ['loopsInPromiseJob', 'loops'] as const) {
    it(`${name}: no frame, one warning, and the process lives on (file closes after it, then the next renderer's frame)`, async () => {
      const web = await webWith(name, RENDERERS[name]);
      const next = join(tmp, `${name}-next.js`);
      await writeFile(next, RENDERERS.answers);
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, web, next], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d));
      child.stderr.on('data', (d: Buffer) => (err += d));
      const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
      // vm's timeout here aborted the child: SIGABRT, "Assertion failed: (env_->execution_async_id()) == (0)"
      expect({ code, signal }, err).toEqual({ code: 0, signal: null });
      const { frames, failures } = JSON.parse(out) as { frames: (string | null)[]; failures: string[] };
      expect(frames).toEqual([null, null, '<p>{"page":3}</p>']);
      expect(failures).toEqual([`Error: the render timed out after ${RENDER_LIMIT_MS} ms and was stopped`]);
    }, 120_000);
  }
});

describe('pages and the thread', () => {
  it("pages asked for at once each get their own answers' frame, from one thread kept between pages", async () => {
    const failures: string[] = [];
    const r = new FirstFrameRenderer(await webWith('at-once', RENDERERS.answers), (m) => failures.push(m));
    try {
      const pages = Array.from({ length: 1 + MAX_WAITING }, (_, page) => page);
      const frames = await Promise.all(pages.map((page) => r.render(JSON.stringify({ page }), prefs, 'info')));
      expect(frames.map((f) => f?.html)).toEqual(pages.map((page) => `<p>{"page":${page}}</p>`));
      const thread = r.threadId;
      expect(thread).toBeGreaterThan(0);
      expect((await r.render('{"page":"later"}', prefs, 'info'))?.html).toBe('<p>{"page":"later"}</p>');
      expect(r.threadId).toBe(thread);
      expect(failures).toEqual([]);
    } finally {
      r.close();
    }
  });

  it('more pages than may wait: those go out at once without a frame; a stop lets the waiting ones go too, with one warning', async () => {
    const failures: string[] = [];
    const r = new FirstFrameRenderer(await webWith('too-many', RENDERERS.loops), (m) => failures.push(m));
    try {
      // whether each page was answered before the render was stopped
      const beforeStop: boolean[] = [];
      const pages = Array.from({ length: 1 + MAX_WAITING + 2 }, (_, page) => page);
      const frames = await Promise.all(pages.map(() => r.render('{}', prefs, 'info').finally(() => beforeStop.push(failures.length === 0))));
      expect(frames).toEqual(pages.map(() => undefined));
      // two pages beyond the one rendering and MAX_WAITING did not wait for the render that was
      // stopped (which two: the ones that came last, in the order their file checks came back)
      expect(beforeStop).toEqual([true, true, ...Array<boolean>(1 + MAX_WAITING).fill(false)]);
      expect(failures).toEqual([`Error: the render timed out after ${RENDER_LIMIT_MS} ms and was stopped`]);
      expect(r.threadId).toBeUndefined();
    } finally {
      r.close();
    }
  });

  it('a renderer that throws: no frame and one warning, and its thread serves the next page', async () => {
    const failures: string[] = [];
    const web = await webWith('throws', RENDERERS.throws);
    const r = new FirstFrameRenderer(web, (m) => failures.push(m));
    try {
      expect(await r.render('{}', prefs, 'info')).toBeUndefined();
      expect(await r.render('{}', prefs, 'info')).toBeUndefined();
      expect(failures).toEqual(['Error: broken renderer']);
      const thread = r.threadId;
      // a new build beside the running daemon: compiled again in the same thread
      await writeFile(join(web, FIRST_FRAME_FILE), RENDERERS.answers);
      expect((await r.render('{"page":1}', prefs, 'info'))?.html).toBe('<p>{"page":1}</p>');
      expect(r.threadId).toBe(thread);
    } finally {
      r.close();
    }
  });

  it("a renderer that allocates without end: stopped (by its thread's heap limit, or its time limit), no frame, one warning; the next page gets a new thread", async () => {
    const failures: string[] = [];
    const web = await webWith('allocates', RENDERERS.allocates);
    const r = new FirstFrameRenderer(web, (m) => failures.push(m));
    try {
      expect(await r.render('{}', prefs, 'info')).toBeUndefined();
      expect(failures).toHaveLength(1);
      expect(failures[0]).toMatch(/ERR_WORKER_OUT_OF_MEMORY|out of memory|timed out/i);
      expect(r.threadId).toBeUndefined();
      await writeFile(join(web, FIRST_FRAME_FILE), RENDERERS.answers);
      expect((await r.render('{"page":1}', prefs, 'info'))?.html).toBe('<p>{"page":1}</p>');
    } finally {
      r.close();
    }
  });

  it('the thread is ended after its idle time; the next page starts a new one', async () => {
    const r = new FirstFrameRenderer(await webWith('idle', RENDERERS.answers), undefined, 50);
    try {
      expect((await r.render('{"page":1}', prefs, 'info'))?.html).toBe('<p>{"page":1}</p>');
      const first = r.threadId;
      expect(first).toBeGreaterThan(0);
      await expect.poll(() => r.threadId).toBeUndefined();
      expect((await r.render('{"page":2}', prefs, 'info'))?.html).toBe('<p>{"page":2}</p>');
      expect(r.threadId).toBeGreaterThan(first!);
    } finally {
      r.close();
    }
  });

  it('no renderer in the build: no frame and no thread', async () => {
    const r = new FirstFrameRenderer(join(tmp, 'none'));
    expect(await r.render('{}', prefs, 'info')).toBeUndefined();
    expect(r.threadId).toBeUndefined();
  });
});
