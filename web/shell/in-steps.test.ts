import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextFrame, FRAME_WAIT_MS, nextTask, showAllSteps, stepping, useSteps } from './in-steps.tsx';

function Page({ count }: { count: number }) {
  const shown = useSteps(count);
  return h(
    'div',
    { 'data-page': 'p', ...stepping(shown, count) },
    Array.from({ length: shown }, (_, k) => h('p', { key: k }, `part ${k + 1}`)),
  );
}

describe('a page in steps', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("renders its first step only where no effect runs (the daemon's first frame), marked as stepping", () => {
    expect(renderToString(h(Page, { count: 3 }))).toBe('<div data-page="p" data-stepping="1/3"><p>part 1</p></div>');
    // a page of one step is whole at once, without the mark
    expect(renderToString(h(Page, { count: 1 }))).toBe('<div data-page="p"><p>part 1</p></div>');
  });

  it('a page mounted after showAllSteps begins with its first step again', () => {
    showAllSteps();
    expect(renderToString(h(Page, { count: 2 }))).toBe('<div data-page="p" data-stepping="1/2"><p>part 1</p></div>');
  });

  it('runs the next step in a task of its own, after the microtasks of the current one', async () => {
    const order: string[] = [];
    const done = new Promise<void>((resolve) =>
      nextTask(() => {
        order.push('task');
        resolve();
      }),
    );
    void Promise.resolve().then(() => order.push('microtask'));
    order.push('sync');
    await done;
    expect(order).toEqual(['sync', 'microtask', 'task']);
  });

  it('waits for the next frame, in a task after it', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const ran = vi.fn();
    afterNextFrame(ran);
    await new Promise((r) => setTimeout(r, 10));
    expect(ran).not.toHaveBeenCalled();
    frames.shift()!(0);
    expect(ran).not.toHaveBeenCalled(); // not inside the frame's callbacks: in a task after them
    await vi.waitFor(() => expect(ran).toHaveBeenCalledTimes(1));
  });

  it('goes on without a frame (a hidden tab draws none) after FRAME_WAIT_MS, once', async () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const ran = vi.fn();
    afterNextFrame(ran);
    vi.advanceTimersByTime(FRAME_WAIT_MS - 1);
    expect(ran).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(ran).toHaveBeenCalledTimes(1);
    vi.useRealTimers();
    frames.shift()!(0); // the frame comes late: the step is not run twice
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toHaveBeenCalledTimes(1);
  });

  it('a page that goes away cancels its next step', async () => {
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    const ran = vi.fn();
    const cancel = afterNextFrame(ran);
    cancel();
    frames.shift()!(0);
    await new Promise((r) => setTimeout(r, FRAME_WAIT_MS + 20));
    expect(ran).not.toHaveBeenCalled();
  });
});
