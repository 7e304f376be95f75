// A daemon for the console figures in a process of its own (test/bench/slow-core.ts runs it on one
// slowed core): the simulator daemon serving the web folder given as the first argument, with its
// administrator logged in. Prints one JSON line, {url, cookie}, then serves until SIGTERM.
import { startTestDaemon } from '../support/daemon.ts';

const d = await startTestDaemon({ webDir: process.argv[2] });
const admin = await d.admin();
process.stdout.write(`${JSON.stringify({ url: d.url, cookie: admin.cookie })}\n`);
process.once('SIGTERM', () => void d.stop().then(() => process.exit(0)));
