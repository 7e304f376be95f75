// The enabled/disabled state of the unit's system services (spec §3, §4 "a service is either
// enabled or disabled"), persisted as one JSON file. Shared by the Linux and the simulated hw so
// that both keep the same file format and the same defaults.
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file.ts';
import { SERVICE_NAMES, type ServiceName, type ServiceState } from './types.ts';

/** State of a fresh unit. */
export const SERVICE_DEFAULTS: Readonly<Record<ServiceName, boolean>> = {
  'avahi-daemon': false, // security.md LF-1: nothing that announces or listens until enabled
  x11vnc: false, // VNC is unencrypted (spec §5 security warning); remote screen only on request
  snmpd: false, // SNMP v1/v2c sends community strings in clear; monitoring is opt-in
  cloud: false, // no outbound connection to a cloud service unless the operator asks for it
  sshd: false, // a remote shell is the largest attack surface; enabled for maintenance only
  ntpd: true, // log timestamps and TLS certificate checks need correct time (spec §5: VPN without NTP warns)
  firewall: true, // restricts, never opens: off would expose every listening port
  router: false, // routing between interfaces changes the plant network's topology
  bridge: false, // bridging joins two networks; must be a deliberate decision
  fastboot: false, // skips boot-time checks; speed is traded for safety only on request
  autorun: false, // runs programs from removable media (spec §5 security warning "autorun enabled")
  dhcp_server: false, // a second DHCP server on a plant network hands out conflicting addresses
  usb_device_restore: false, // restoring settings from any USB stick lets physical access replace the config
};

export function isServiceName(name: unknown): name is ServiceName {
  return typeof name === 'string' && (SERVICE_NAMES as readonly string[]).includes(name);
}

export interface ServiceStore {
  /** every service, in the order of SERVICE_NAMES */
  list(): Promise<ServiceState[]>;
  /** validates the name, applies the change (when an applier is given), then persists it */
  set(name: ServiceName, enabled: boolean): Promise<void>;
  /** whether the service is switched on */
  enabled(name: ServiceName): Promise<boolean>;
}

export interface ServiceStoreOptions {
  /** the JSON file, e.g. `${dataDir}/services.json` */
  file: string;
  /** makes the change real (systemctl on the unit); when it throws, nothing is persisted */
  apply?: (name: ServiceName, enabled: boolean) => Promise<void>;
}

export function createServiceStore(opts: ServiceStoreOptions): ServiceStore {
  // Read-modify-write steps run one at a time, so two concurrent changes never lose each other.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const run = queue.then(op, op);
    queue = run.catch(() => {});
    return run;
  };

  const list = () =>
    serial(async () => {
      const state = await readServiceFile(opts.file);
      return SERVICE_NAMES.map((name) => ({ name, enabled: state[name] }));
    });
  return {
    list,
    enabled: async (name) => (await list()).some((s) => s.name === name && s.enabled),
    set: (name, enabled) => {
      // Checked here as well as by the API: the name ends up as a systemctl argument.
      if (!isServiceName(name)) return Promise.reject(new RangeError(`unknown service: ${String(name)}`));
      if (typeof enabled !== 'boolean') return Promise.reject(new TypeError('enabled must be a boolean'));
      return serial(async () => {
        const state = await readServiceFile(opts.file);
        await opts.apply?.(name, enabled);
        state[name] = enabled;
        await writeFileAtomic(opts.file, `${JSON.stringify(state, null, 2)}\n`);
      });
    },
  };
}

/**
 * The stored state with defaults for whatever is missing. A missing, unreadable or corrupt file
 * gives the defaults (security.md CFG-2): the service view must keep working.
 */
export async function readServiceFile(file: string): Promise<Record<ServiceName, boolean>> {
  const state = { ...SERVICE_DEFAULTS };
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return state;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return state;
  for (const [name, enabled] of Object.entries(parsed)) {
    // Unknown names (a service dropped in a newer firmware) and non-booleans are ignored.
    if (isServiceName(name) && typeof enabled === 'boolean') state[name] = enabled;
  }
  return state;
}
