// `npm start`: the daemon with the virtual unit (sim/simulator.ts) and a data folder, until Ctrl+C.
import { runDaemonCli } from '../device/cli.ts';
import { simulatorVariant } from './simulator.ts';

void runDaemonCli('simulator', simulatorVariant);
