import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { limitedWarn, WARN_LIMITS } from './log-limit.ts';

const sink = () => {
  const lines: { msg: string; fields?: Record<string, unknown> }[] = [];
  return { lines, log: { warn: (msg: string, fields?: Record<string, unknown>) => lines.push({ msg, ...(fields ? { fields } : {}) }) } };
};

describe('limitedWarn', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs the first few of each source in a window and summarises the rest when the window ends', () => {
    const { lines, log } = sink();
    const w = limitedWarn(log);
    for (let i = 0; i < 1000; i++) w.warn('10.0.0.1', 'handshake failed', { i });
    for (let i = 0; i < 5; i++) w.warn('10.0.0.2', 'handshake failed', { i });
    expect(lines.map((l) => l.fields?.i)).toEqual([0, 1, 2, 0, 1, 2]);
    vi.advanceTimersByTime(WARN_LIMITS.windowMs);
    expect(lines).toHaveLength(7);
    expect(lines[6]).toEqual({
      msg: 'handshake failed (repeated)',
      fields: {
        suppressed: 999,
        sources: 2,
        top: [
          { source: '10.0.0.1', count: 997 },
          { source: '10.0.0.2', count: 2 },
        ],
        windowS: 60,
      },
    });
    // a new window: the source is logged again
    w.warn('10.0.0.1', 'handshake failed', { i: 'again' });
    expect(lines.at(-1)).toEqual({ msg: 'handshake failed', fields: { i: 'again' } });
    vi.advanceTimersByTime(WARN_LIMITS.windowMs);
    expect(lines).toHaveLength(8); // nothing was left out: no summary
  });

  it('caps the lines of all sources together and the sources it tells apart', () => {
    const { lines, log } = sink();
    const w = limitedWarn(log, { total: 4, maxSources: 2 });
    for (let s = 0; s < 10; s++) w.warn(`10.0.0.${s}`, 'fault');
    expect(lines).toHaveLength(2 + 2); // two sources told apart, the third onwards is "other", which logs up to the total
    w.flush();
    expect(lines.at(-1)!.fields).toMatchObject({ suppressed: 6, sources: 1, top: [{ source: 'other', count: 6 }] });
  });

  it("a source's share counts every message; one summary line per message", () => {
    const { lines, log } = sink();
    const w = limitedWarn(log, { perSource: 1 });
    for (let i = 0; i < 3; i++) {
      w.warn('a', 'one');
      w.warn('a', 'two');
    }
    w.flush();
    expect(lines.map((l) => [l.msg, l.fields?.suppressed])).toEqual([
      ['one', undefined],
      ['two (repeated)', 3],
      ['one (repeated)', 2],
    ]);
  });
});
