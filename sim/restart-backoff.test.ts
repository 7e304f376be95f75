import { describe, expect, it } from 'vitest';
import { nextRestartMs, RESTART_MAX_MS } from './restart-backoff.ts';

describe('nextRestartMs', () => {
  it('250 ms first, doubling while the daemon dies soon after its start, at most 60 s', () => {
    let ms = 0;
    const waits: number[] = [];
    for (let i = 0; i < 9; i++) waits.push((ms = nextRestartMs(ms, 500)));
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 8000, 16000, 32000, 60000]);
    expect(Math.max(...waits)).toBe(RESTART_MAX_MS);
  });
  it('back to 250 ms after the daemon ran for a minute', () => {
    expect(nextRestartMs(32000, 60_000)).toBe(250);
    expect(nextRestartMs(32000, 59_999)).toBe(60000);
  });
});
