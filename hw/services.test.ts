import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createServiceStore, readServiceFile, SERVICE_DEFAULTS } from './services.ts';
import { SERVICE_NAMES, type ServiceName } from './types.ts';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'hw-services-'));
  file = path.join(dir, 'services.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const enabledNames = async (store: ReturnType<typeof createServiceStore>) => (await store.list()).filter((s) => s.enabled).map((s) => s.name);

describe('service store', () => {
  it('a fresh unit has ntpd and firewall on (LF-1), everything else off', async () => {
    const store = createServiceStore({ file });
    const list = await store.list();
    expect(list.map((s) => s.name)).toEqual([...SERVICE_NAMES]);
    expect(await enabledNames(store)).toEqual(['ntpd', 'firewall']);
    expect(Object.keys(SERVICE_DEFAULTS).sort()).toEqual([...SERVICE_NAMES].sort());
  });

  it('a change round-trips and persists for a new instance on the same file', async () => {
    const a = createServiceStore({ file });
    await a.set('sshd', true);
    await a.set('ntpd', false);
    expect(await enabledNames(a)).toEqual(['sshd', 'firewall']);
    const b = createServiceStore({ file });
    expect(await enabledNames(b)).toEqual(['sshd', 'firewall']);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ ...SERVICE_DEFAULTS, sshd: true, ntpd: false });
  });

  it('an unknown name or a non-boolean is rejected and nothing is written', async () => {
    const store = createServiceStore({ file });
    await expect(store.set('telnetd' as ServiceName, true)).rejects.toThrow(RangeError);
    await expect(store.set('sshd; reboot' as ServiceName, true)).rejects.toThrow('unknown service');
    await expect(store.set('sshd', 'yes' as unknown as boolean)).rejects.toThrow(TypeError);
    await expect(readdir(dir)).resolves.toEqual([]);
  });

  it('a corrupt or foreign file gives the defaults; unknown names and non-booleans are ignored', async () => {
    await writeFile(file, '{"sshd": tru');
    expect(await readServiceFile(file)).toEqual(SERVICE_DEFAULTS);
    await writeFile(file, '[1,2]');
    expect(await readServiceFile(file)).toEqual(SERVICE_DEFAULTS);
    await writeFile(file, JSON.stringify({ sshd: true, telnetd: true, firewall: 'no' }));
    expect(await readServiceFile(file)).toEqual({ ...SERVICE_DEFAULTS, sshd: true });
  });

  it('the applier runs before the write; when it fails nothing is persisted', async () => {
    const calls: [ServiceName, boolean][] = [];
    const ok = createServiceStore({ file, apply: async (n, e) => void calls.push([n, e]) });
    await ok.set('snmpd', true);
    expect(calls).toEqual([['snmpd', true]]);
    const failing = createServiceStore({
      file,
      apply: async () => {
        throw new Error('unit failed');
      },
    });
    await expect(failing.set('x11vnc', true)).rejects.toThrow('unit failed');
    expect(await enabledNames(failing)).toEqual(['snmpd', 'ntpd', 'firewall']);
  });

  it('concurrent changes are all kept and no temp file is left behind', async () => {
    const store = createServiceStore({ file });
    await Promise.all([store.set('sshd', true), store.set('router', true), store.set('bridge', true), store.set('ntpd', false)]);
    expect(await enabledNames(createServiceStore({ file }))).toEqual(['sshd', 'firewall', 'router', 'bridge']);
    expect(await readdir(dir)).toEqual(['services.json']);
  });
});
