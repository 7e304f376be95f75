// IPv4 helpers for address ranges (spec §5).
export function ipToNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** spec §5: the all-addresses form: start 0.0.0.0 with end 0.0.0.0 or 255.255.255.255. */
export function isAllAddresses(start: string, end: string): boolean {
  return start === '0.0.0.0' && (end === '0.0.0.0' || end === '255.255.255.255');
}

/** Whether `ip` lies in start..end (inclusive), honouring the all-addresses form. */
export function ipInRange(ip: string, start: string, end: string): boolean {
  if (isAllAddresses(start, end)) return true;
  const n = ipToNumber(ip);
  return n >= ipToNumber(start) && n <= ipToNumber(end);
}
