// security.md HOST-1 (issue 16 item 4): a request is answered on the console's unauthenticated
// routes and on the REST port only when its Host header names this unit. A DNS-rebinding page
// reaches the unit under the attacker's own name (`Host: rebind.attacker.example`), which is
// refused; an IP literal cannot be rebound. The unit's names are: the address the connection
// arrived at, loopback addresses and `localhost`, the unit's host name (and `<name>.local`, the name
// avahi announces), and the names the technician lists in pew_api's `host_names`.
/** The host part of a Host header, lower case, without the port, brackets or a trailing dot. */
export function hostOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const h = header.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(h);
  if (v6) return v6[1];
  const named = /^([a-z0-9.-]+?)\.?(?::\d{1,5})?$/.exec(h);
  return named ? named[1] : undefined;
}

/** An IPv4-mapped IPv6 address as its IPv4 form. */
const plain = (a: string) => a.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

export interface UnitNames {
  /** the local address the request's connection arrived at */
  localAddress?: string | undefined;
  /** the unit's host name (hw systemInfo) */
  hostname: string;
  /** names the technician configured (pew_api host_names) */
  configured: readonly string[];
}

/** Whether `header` (a Host header) names this unit. */
export function isUnitHost(header: string | undefined, names: UnitNames): boolean {
  const host = hostOf(header);
  if (!host) return false;
  if (LOOPBACK.test(host)) return true;
  if (names.localAddress && plain(names.localAddress) === plain(host)) return true;
  const own = names.hostname.toLowerCase();
  if (own && (host === own || host === `${own}.local`)) return true;
  return names.configured.some((n) => n.toLowerCase().replace(/\.$/, '') === host);
}
