// The systemd unit shipped in the image (build/communicator.service): it starts the daemon of the
// release `current` names with the data folder every release shares (device/firmware/layout.ts),
// stops it with SIGTERM, and systemd's own checker accepts it.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../device/firmware/layout.ts';
import { DAEMON_NODE_FLAGS } from '../device/firmware/node-flags.ts';
import { DAEMON_ENTRY, SERVICE_FILE } from './image.ts';

const file = fileURLToPath(new URL(SERVICE_FILE, import.meta.url));
const text = readFileSync(file, 'utf8');
const setting = (key: string) =>
  text
    .split('\n')
    .find((l) => l.startsWith(`${key}=`))
    ?.slice(key.length + 1);

describe('the systemd unit of the daemon', () => {
  it("runs the current release's bundled daemon with its V8 flags and the shared data folder, on every network", () => {
    const l = layoutOf('/opt/communicator');
    const argv = setting('ExecStart')!.split(' ');
    const flags = DAEMON_NODE_FLAGS.length;
    expect(argv.slice(0, 2 + flags)).toEqual(['/usr/bin/node', ...DAEMON_NODE_FLAGS, join(l.current, DAEMON_ENTRY)]);
    expect(argv.slice(2 + flags)).toEqual(['--data', l.data, '--host', '0.0.0.0', '--port', '8080']);
    expect(setting('WorkingDirectory')).toBe(l.root);
  });

  it('stops with SIGTERM, comes back after a failure, starts at boot', () => {
    expect(setting('KillSignal')).toBe('SIGTERM');
    expect(setting('Restart')).toBe('on-failure');
    expect(setting('WantedBy')).toBe('multi-user.target');
    expect(Number(setting('TimeoutStopSec'))).toBeGreaterThanOrEqual(10);
  });

  it('passes systemd-analyze verify without a warning', () => {
    // an unknown key or section is only a warning on stderr (exit code 0): both must be clean
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect([r.status, r.stderr.trim()]).toEqual([0, '']);
  });
});
