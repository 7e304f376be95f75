// The unit's services as states (spec §3 service names, §4 "a service is either enabled or
// disabled", §5): which changes differ from the current states, and the security warnings that
// follow from the services alone (VNC unencrypted, autorun enabled, VPN with NTP disabled). Kept
// apart from the request schema (services.ts) and the configuration rules (warnings.ts) so that
// /info, the console's first page, uses them without loading valibot or every section schema.
import type { ServiceName } from '../../hw/types.ts';
import { SERVICE_NAMES } from '../../hw/types.ts';
import type { SecurityWarning } from './warnings.ts';

/** The services to change and their new state; the ones left out keep theirs. */
export type ServiceChanges = Partial<Record<ServiceName, boolean>>;

/** The changes that differ from the current states, in the order of SERVICE_NAMES. */
export function serviceDiff(current: readonly { name: string; enabled: boolean }[], wanted: ServiceChanges): [ServiceName, boolean][] {
  return SERVICE_NAMES.flatMap((name): [ServiceName, boolean][] => {
    const want = wanted[name];
    const now = current.find((s) => s.name === name)?.enabled;
    return want === undefined || want === now ? [] : [[name, want]];
  });
}

export function serviceWarnings(services: readonly { name: string; enabled: boolean }[]): SecurityWarning[] {
  const on = (name: string) => services.some((s) => s.name === name && s.enabled);
  const out: SecurityWarning[] = [];
  if (on('x11vnc')) out.push({ code: 'vnc_unencrypted', subjects: ['x11vnc'] });
  if (on('autorun')) out.push({ code: 'autorun_enabled', subjects: ['autorun'] });
  // the unit's VPN is its remote-access ("cloud") service; certificates need a correct clock
  if (on('cloud') && !on('ntpd')) out.push({ code: 'vpn_without_ntp', subjects: ['cloud', 'ntpd'] });
  return out;
}
