// Which client addresses the REST port admits (spec §5 IP ranges): ip1..ip2 of the saved pew_api,
// everyone for the all-addresses form. The listener asks it when a connection is accepted
// (net/http-limits.ts, docs/hardening.md DOS-2), the application again for each request (device/rest/app.ts).
import { ipInRange, isAllAddresses } from '../model/ip.ts';
import type { Rest } from '../model/sections/rest.ts';

/** The client's IPv4 address (an IPv4-mapped IPv6 address as its IPv4 form). */
export const plainIp = (a: string | undefined): string => (a ?? '').replace(/^::ffff:/, '');

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Whether `address` may use the REST port; ranges are IPv4, an IPv6 client only passes the all-addresses form. */
export function restAdmits(cfg: Pick<Rest, 'ip1' | 'ip2'>, address: string | undefined): boolean {
  const ip = plainIp(address);
  return IPV4.test(ip) ? ipInRange(ip, cfg.ip1, cfg.ip2) : isAllAddresses(cfg.ip1, cfg.ip2);
}
