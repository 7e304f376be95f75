import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../../hw/types.ts';
import { type Pew, pew as pewDef } from '../model/sections/pew.ts';
import { createLogger } from '../system/log.ts';
import type { Links } from './links.ts';
import { watchRestart } from './restart.ts';

const log = createLogger({ clock: systemClock, sink: null });

/** Links with one link whose R bits the test sets; counts restarts and remembers what was read. */
function fakeLinks() {
  const bits = new Map<number, boolean>();
  const reads: { id: number; index: number }[] = [];
  const restarts: string[] = [];
  const links = {
    get: (id: number) => ({
      readBits: async (_area: string, index: number) => {
        reads.push({ id, index });
        return [bits.get(index) ?? false];
      },
    }),
    restart: async (reason: string) => {
      restarts.push(reason);
    },
  } as unknown as Links;
  return { links, bits, reads, restarts };
}

const pewWith = (edit: Partial<Pew>): Pew => ({ ...(v.getDefaults(pewDef.schema) as Pew), ...edit });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('restart by PLC and by time', () => {
  it('restarts when the R bit changes to the level, once, after a baseline reading', async () => {
    const f = fakeLinks();
    const w = watchRestart(
      pewWith({ restart_by_plc: true, restart_level: 1, restart_polling: 2, restart_control_r: { area: 'R', bit: '10F' }, interface_plc: 3 }),
      f.links,
      log,
    );
    f.bits.set(175, true); // R10F = word 10 bit 15, set before the first poll: only the baseline
    await vi.advanceTimersByTimeAsync(2000);
    expect(f.reads).toEqual([{ id: 3, index: 175 }]);
    expect(f.restarts).toEqual([]);
    f.bits.set(175, false);
    await vi.advanceTimersByTimeAsync(2000);
    f.bits.set(175, true);
    await vi.advanceTimersByTimeAsync(2000);
    expect(f.restarts).toEqual(['restart by PLC (R10F = 1)']);
    await vi.advanceTimersByTimeAsync(6000); // the bit stays set: no loop
    expect(f.restarts.length).toBe(1);
    w.stop();
  });

  it('level 0 restarts on the falling edge; nothing is read when restart by PLC is off', async () => {
    const f = fakeLinks();
    f.bits.set(1, true);
    const w = watchRestart(pewWith({ restart_by_plc: true, restart_level: 0, restart_polling: 1, restart_control_r: { area: 'R', bit: '1' } }), f.links, log);
    await vi.advanceTimersByTimeAsync(1000);
    f.bits.set(1, false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(f.restarts).toEqual(['restart by PLC (R1 = 0)']);
    w.stop();
    const g = fakeLinks();
    const off = watchRestart(pewWith({ restart_by_plc: false, restart_control_r: { area: 'R', bit: '1' } }), g.links, log);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(g.reads).toEqual([]);
    off.stop();
  });

  it('restarts every restart_by_time hours; 0 never', async () => {
    const f = fakeLinks();
    const w = watchRestart(pewWith({ restart_by_time: 2 }), f.links, log);
    await vi.advanceTimersByTimeAsync(2 * 3_600_000 - 1);
    expect(f.restarts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await vi.advanceTimersByTimeAsync(2 * 3_600_000);
    expect(f.restarts).toEqual(['restart by time (every 2 h)', 'restart by time (every 2 h)']);
    w.stop();
    await vi.advanceTimersByTimeAsync(4 * 3_600_000);
    expect(f.restarts.length).toBe(2);
    const g = fakeLinks();
    watchRestart(pewWith({ restart_by_time: 0 }), g.links, log).stop();
    expect(g.restarts).toEqual([]);
  });
});
