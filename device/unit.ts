// The unit's daemon: on a Linux machine with the real system (serial ports given by
// --com1/--com2/--com3, or the unit's defaults), until Ctrl+C or SIGTERM. Run from its bundle:
// `npm run build` writes dist/daemon/daemon.mjs (build/daemon.ts), `npm run daemon` starts it, and
// the image ships it with its systemd unit (build/communicator.service).

import { createLinuxHw } from '../hw/linux.ts';
import { runDaemonCli } from './cli.ts';
import { APP_VERSION } from './version.ts';

// BSP and HMI versions are read from the unit's image by the firmware work; until then the
// versions of the reference image are assumed
const UNIT_VERSIONS = { app: APP_VERSION, bsp: '1.3.2', hmi: '4.5.2' };
// security.md TLS-2: the unit serves its console over HTTPS; 8080 and 8081 are the console's ports
// (spec §5 keeps them from every service)
export const UNIT_TLS_PORT = 8081;

void runDaemonCli('daemon', async (o) => {
  if (o.plcs) throw new Error("--plcs configures the simulator's virtual PLCs; the unit talks to real ones");
  if (o.devOrigin) throw new Error('--dev-origin opens the simulator to a development console; the unit never answers cross-origin');
  return { hw: createLinuxHw({ dataDir: o.dataDir, versions: UNIT_VERSIONS, serialMap: o.serialMap }), tlsPort: UNIT_TLS_PORT };
});
