// followRuns (runs.ts): one run per saved version, the old one stopped before the new one starts,
// none while the service is off, a failing start leaves the engine without a run until the next save.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../hw/types.ts';
import { ConfigStore } from '../config/store.ts';
import { CONFIG_SECTIONS } from '../model/index.ts';
import { defaultsOf } from '../model/section.ts';
import { type Mqtt, pew_mqtt } from '../model/sections/mqtt.ts';
import { createLogger } from '../system/log.ts';
import { followRuns } from './runs.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'runs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mqtt = (over: Partial<Mqtt>): Mqtt => ({ ...defaultsOf(pew_mqtt), broker_addr: 'mqtt://127.0.0.1', ...over });

describe('followRuns', () => {
  it('stops the old run before building the next, and has none while the service is off', async () => {
    const log = createLogger({ clock: systemClock, sink: null });
    const store = await ConfigStore.open({ dir, defs: CONFIG_SECTIONS, log });
    const events: string[] = [];
    let n = 0;
    const runs = await followRuns(store, 'pew_mqtt', log, async () => {
      const m = store.get<Mqtt>('pew_mqtt');
      if (!m.enable_mqtt) return undefined;
      const id = ++n;
      events.push(`start ${id} keep_alive ${m.keep_alive}`);
      return {
        id,
        stop: async () => {
          await new Promise((r) => setTimeout(r, 20));
          events.push(`stop ${id}`);
        },
      };
    });
    expect(runs.current()).toBeUndefined();
    await store.save({ pew_mqtt: mqtt({ enable_mqtt: true, keep_alive: 10 }) });
    await runs.settled();
    await store.save({ pew_mqtt: mqtt({ enable_mqtt: true, keep_alive: 20 }) });
    await runs.settled();
    expect(runs.current()?.id).toBe(2);
    await store.save({ pew_mqtt: mqtt({ enable_mqtt: false }) });
    await runs.settled();
    expect(runs.current()).toBeUndefined();
    await store.save({ pew_mqtt: mqtt({ enable_mqtt: true, keep_alive: 30 }) });
    await runs.settled();
    await runs.close();
    expect(events).toEqual(['start 1 keep_alive 10', 'stop 1', 'start 2 keep_alive 20', 'stop 2', 'start 3 keep_alive 30', 'stop 3']);
    expect(runs.current()).toBeUndefined();
  });

  it('a start that fails leaves no run, and the next save starts again', async () => {
    const log = createLogger({ clock: systemClock, sink: null });
    const store = await ConfigStore.open({ dir, defs: CONFIG_SECTIONS, log });
    let fail = true;
    const runs = await followRuns(store, 'pew_mqtt', log, () => {
      if (!store.get<Mqtt>('pew_mqtt').enable_mqtt) return undefined;
      if (fail) throw new Error('cannot start');
      return { stop: async () => {} };
    });
    await store.save({ pew_mqtt: mqtt({ enable_mqtt: true }) });
    await runs.settled();
    expect(runs.current()).toBeUndefined();
    fail = false;
    await store.save({ pew_mqtt: mqtt({ enable_mqtt: true, keep_alive: 5 }) });
    await runs.settled();
    expect(runs.current()).toBeDefined();
    await runs.close();
  });
});
