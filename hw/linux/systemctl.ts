// Makes a service change real on the unit. Runs systemctl directly through execFile: no shell,
// fixed arguments, and a name already checked against SERVICE_NAMES (security.md INJ-1).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { isServiceName } from '../services.ts';
import type { ServiceName } from '../types.ts';

const run = promisify(execFile);

// The BSP ships one systemd unit per service name of spec §3.
export function systemctlArgs(name: ServiceName, enabled: boolean): string[] {
  if (!isServiceName(name)) throw new RangeError(`unknown service: ${String(name)}`);
  return [enabled ? 'enable' : 'disable', '--now', `${name}.service`];
}

export async function applyService(name: ServiceName, enabled: boolean): Promise<void> {
  // A hung unit start must not hold the service store's queue for ever.
  await run('systemctl', systemctlArgs(name, enabled), { timeout: 30_000 });
}
