import { describe, expect, it } from 'vitest';
import { StatusBook } from './status.ts';

describe('StatusBook: since when', () => {
  const book = () => {
    const clock = { t: 1_000, now: () => clock.t };
    return { clock, b: new StatusBook('sql', clock, [] as const) };
  };

  it('a wait keeps its start across the retries between (waiting → running → waiting)', () => {
    const { clock, b } = book();
    b.set('running');
    clock.t = 2_000;
    b.set('waiting');
    expect(b.since).toBe(2_000);
    for (const t of [3_000, 5_000, 9_000]) {
      clock.t = t;
      b.set('running'); // a retry
      expect([b.state, b.since]).toEqual(['running', t]);
      clock.t = t + 100;
      b.set('waiting'); // failed again
      expect([b.state, b.since]).toEqual(['waiting', 2_000]);
    }
  });

  it('a success ends the wait: the next wait starts anew; so does idle or off', () => {
    const { clock, b } = book();
    b.set('waiting');
    clock.t = 2_000;
    b.set('running');
    b.success();
    clock.t = 3_000;
    b.set('waiting');
    expect(b.since).toBe(3_000);
    clock.t = 4_000;
    b.set('idle');
    expect(b.since).toBe(4_000);
    clock.t = 5_000;
    b.set('waiting');
    expect(b.since).toBe(5_000);
    clock.t = 6_000;
    b.set('waiting'); // no change
    expect(b.since).toBe(5_000);
  });
});
