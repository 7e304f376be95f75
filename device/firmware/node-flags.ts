// The V8 flags the unit's daemon runs with, wherever it is started as a release: the systemd unit
// (build/communicator.service, checked by build/service.test.ts), the simulator's supervisor
// (sim/supervisor.ts) and `npm run bench`, which measures the daemon as the unit runs it.
//
// `--max-semi-space-size=2` (MB): V8's young generation grows to 16 MB per semi-space by default,
// sized for throughput on desktops. On the unit it made the daemon's working RSS ~25 MB larger
// (100 MB against 76 MB after 4,096 requests) and let 1,024 connections opened and dropped at the
// console's accept grow a fresh daemon by 7 MB (docs/hardening.md DOS-3: goal ≤ 5 MB); with 2 MB
// the daemon collects its short-lived objects sooner. `npm run bench` shows what it costs in
// requests per second against bare node:http.
export const DAEMON_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];
