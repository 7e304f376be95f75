// A heavy page rendered in steps: the part that shows the page's data (its overview or status)
// in the first render, the rest in later tasks, one step each, so that no task of a menu move or a
// first load holds the main thread for the whole page (hundreds of fields: 500-800 ms at CPU 4×).
//
// - The first render is step 1, on the daemon (preact-render-to-string runs no effects) as in the
//   browser: the browser's first render matches the daemon's first frame.
// - Steps advance only in effects, each after the next frame has been drawn (so each step's
//   style and layout are a frame of their own), in a task of its own (scheduler.postTask, else a
//   MessageChannel message; never requestIdleCallback, which may starve on a busy page).
// - A step renders a part of the page's view only: the values live in the sections' signals
//   (web/state/sections.ts), so a save, the validation and the menu's markers see every field
//   whether its part is drawn yet or not.
// - `showAllSteps()` renders every step of the pages on screen at once: a link to a block or field
//   further down (an overview's row, a problem's place) calls it before it looks for its target.
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';

/** counts the calls of showAllSteps; a page mounted before the last call shows all its steps */
const shownAll = signal(0);

/** Renders every step of the pages on screen now (a link to a part further down is followed). */
export function showAllSteps(): void {
  shownAll.value += 1;
}

interface PostTask {
  postTask(fn: () => void, opts?: { priority?: 'user-blocking' | 'user-visible' | 'background' }): Promise<unknown>;
}

/** Runs `fn` in a task of its own, soon (not when idle). */
export function nextTask(fn: () => void): void {
  const s = (globalThis as { scheduler?: PostTask }).scheduler;
  if (s?.postTask) {
    void s.postTask(fn, { priority: 'user-visible' }).catch(() => undefined);
    return;
  }
  const c = new MessageChannel();
  c.port1.onmessage = () => {
    c.port1.close();
    fn();
  };
  c.port2.postMessage(null);
}

/** a hidden tab draws no frames: the next step comes after this at the latest */
export const FRAME_WAIT_MS = 100;

/** Runs `fn` in a task of its own once the next frame has been drawn (or after FRAME_WAIT_MS). */
export function afterNextFrame(fn: () => void): () => void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  const timer = setTimeout(run, FRAME_WAIT_MS);
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => nextTask(run));
  return () => {
    done = true;
    clearTimeout(timer);
  };
}

/**
 * How many of a page's `count` steps to render: 1 in the first render, one more after each drawn
 * frame, all of them once `showAllSteps()` was called while the page was shown. Step 1 is what the
 * page shows its data with; the others follow in the order of the page.
 */
export function useSteps(count: number): number {
  const all = shownAll.value;
  const [mountedAt] = useState(all);
  const [n, setN] = useState(1);
  const shown = all !== mountedAt ? count : Math.min(n, count);
  useEffect(() => {
    if (shown >= count) return;
    return afterNextFrame(() => setN(shown + 1));
  }, [shown, count]);
  return shown;
}

/** The page's root attribute while its steps are still being rendered (tests wait for its absence). */
export const stepping = (shown: number, count: number) => (shown < count ? { 'data-stepping': `${shown}/${count}` } : {});
