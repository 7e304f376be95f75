// `npm start`: the daemon with the virtual unit and a data folder, until Ctrl+C.
import { runDaemonCli } from '../device/cli.ts';
import { APP_VERSION } from '../device/version.ts';
import { createSimHw } from './hw.ts';

// the simulated unit's board support package and HMI runtime (above the spec §5 minimums)
const SIM_VERSIONS = { app: APP_VERSION, bsp: '1.3.2', hmi: '4.5.2' };

void runDaemonCli('Simulator', (o) => createSimHw({ dataDir: o.dataDir, versions: SIM_VERSIONS, serialMap: o.serialMap }));
