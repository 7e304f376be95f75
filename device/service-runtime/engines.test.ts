// The registration list (engines.ts): an engine that cannot start (its queue folder is a file)
// is reported in state error; the others start and the daemon's context is built.

import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSimHw } from '../../sim/hw.ts';
import { Links } from '../com/links.ts';
import { ConfigStore } from '../config/store.ts';
import { CONFIG_SECTIONS } from '../model/index.ts';
import { createLogger } from '../system/log.ts';
import { startServiceEngines } from './engines.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engines-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('service engines', () => {
  it('an engine whose queue folder cannot be made is in state error; the others run', async () => {
    await mkdir(join(dir, 'queues'), { recursive: true });
    await writeFile(join(dir, 'queues', 'httpc'), 'not a folder');
    const hw = createSimHw({ dataDir: dir, versions: { app: '0', bsp: '1', hmi: '1' } });
    const log = createLogger({ clock: hw.clock, sink: null });
    const store = await ConfigStore.open({ dir: join(dir, 'config'), defs: CONFIG_SECTIONS, log });
    const links = new Links({ hw, log, clock: hw.clock });
    const engines = await startServiceEngines({ store, links, hw, log, dataDir: dir });
    const status = engines.status();
    expect(status.map((s) => [s.service, s.state])).toEqual([
      ['mqtt', 'off'],
      ['httpc', 'error'],
      ['email', 'off'],
      ['sql', 'off'],
      ['nosql', 'off'],
      ['script', 'off'],
    ]);
    expect(status[1]!.lastError).toMatchObject({ code: 'local', number: 7 });
    expect(status[0]!.sparkplug).toMatchObject({ enabled: false, state: 'off', metrics: 0 });
    expect(log.recent().some((e) => e.level === 'error' && e.msg === 'the httpc engine cannot start')).toBe(true);
    await engines.close();
  });

  it("a Sparkplug B engine that cannot start is the MQTT entry's sparkplug part in state error; the other engines run", async () => {
    // the unit's client id, which the edge node's is made from, cannot be kept: its file is a folder
    await mkdir(join(dir, 'queues', 'mqtt', 'client-id'), { recursive: true });
    const hw = createSimHw({ dataDir: dir, versions: { app: '0', bsp: '1', hmi: '1' } });
    const log = createLogger({ clock: hw.clock, sink: null });
    const store = await ConfigStore.open({ dir: join(dir, 'config'), defs: CONFIG_SECTIONS, log });
    const links = new Links({ hw, log, clock: hw.clock });
    const engines = await startServiceEngines({ store, links, hw, log, dataDir: dir });
    const status = engines.status();
    expect(status[0]!.sparkplug).toMatchObject({ enabled: true, state: 'error', lastError: { message: expect.any(String) } });
    expect(status.slice(1).map((s) => s.state)).toEqual(['off', 'off', 'off', 'off', 'off']);
    expect(log.recent().some((e) => e.level === 'error' && e.msg === 'the sparkplug engine cannot start')).toBe(true);
    await engines.close();
  });
});
