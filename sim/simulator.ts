// What `npm start` adds to the daemon: a virtual PLC beside every serial connector and COM4 from the
// simulator's PLC configuration (`--plcs FILE`, else the built-in one; docs/simulator.md), reachable
// in-process, on a pseudo-terminal or over TCP, the /sim/plcs routes, and the URL in the data folder
// (sim/sim-url.ts) for `npm run plc`. sim/main.ts runs it from the command line; the README's
// walk-through test (test/e2e/readme-walkthrough.test.ts) starts the same thing in-process.
import { join } from 'node:path';
import type { Variant } from '../device/cli.ts';
import type { DaemonCliOptions } from '../device/options.ts';
import { APP_VERSION } from '../device/version.ts';
import { createSimHw } from './hw.ts';
import { DEFAULT_PLC_CONFIG, loadPlcConfig } from './plc/config.ts';
import { createPlcRig } from './plc/rig.ts';
import { SIM_PLC_PATH, simPlcRoutes } from './plc-routes.ts';
import { removeSimUrl, writeSimUrl } from './sim-url.ts';

// the simulated unit's board support package and HMI runtime (above the spec §5 minimums)
const SIM_VERSIONS = { app: APP_VERSION, bsp: '1.3.2', hmi: '4.5.2' };

export async function simulatorVariant(o: Pick<DaemonCliOptions, 'dataDir' | 'plcs' | 'serialMap'>): Promise<Variant> {
  const config = o.plcs ? await loadPlcConfig(o.plcs) : DEFAULT_PLC_CONFIG;
  const rig = createPlcRig(config, { dir: join(o.dataDir, 'pty') });
  await rig.start();
  return {
    // a connector given with --comN is a real device and wins over the virtual PLC
    hw: createSimHw({ dataDir: o.dataDir, versions: SIM_VERSIONS, serialMap: { ...rig.serialMap, ...o.serialMap }, virtualPorts: rig.virtualPorts }),
    routes: simPlcRoutes(rig),
    banner: [
      `virtual PLCs (${o.plcs ?? 'built-in configuration'}):`,
      ...rig.describe().map((l) => `  ${l}`),
      `PLC memory and faults: npm run plc -- --help   (or ${SIM_PLC_PATH})`,
    ],
    listening: (url) => writeSimUrl(o.dataDir, url),
    close: async () => {
      await removeSimUrl(o.dataDir);
      await rig.close();
    },
  };
}
