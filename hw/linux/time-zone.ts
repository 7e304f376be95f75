// The system's time zone as an IANA name, read the way the C library and ICU find it: the TZ
// variable, else the /etc/localtime link into the zoneinfo tree, else /etc/timezone. Asking
// Intl.DateTimeFormat instead would load ICU's time zone data, about 9 MB resident on the unit for
// one name; Intl stays the answer only when none of these name a zone.
import { readlink } from 'node:fs/promises';
import { readText, rooted } from './files.ts';

const IANA = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
/** the names of UTC that Intl reports as `UTC` (Debian links /etc/localtime to Etc/UTC) */
const UTC_NAMES = new Set(['Etc/UTC', 'Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'UCT', 'Universal', 'Zulu']);
const canonical = (zone: string) => (UTC_NAMES.has(zone) ? 'UTC' : zone);

/** The zone of a link target such as `/usr/share/zoneinfo/Europe/Berlin` (`posix/` and `right/` trees too). */
export function zoneOfLink(target: string): string | undefined {
  const m = /zoneinfo\/(?:posix\/|right\/)?(.+)$/.exec(target);
  return m && IANA.test(m[1]!) ? canonical(m[1]!) : undefined;
}

export async function readTimeZone(root = '/', env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const tz = env.TZ?.replace(/^:/, '');
  if (tz !== undefined) {
    // a path (TZ=:/usr/share/zoneinfo/Europe/Berlin) or a name; a POSIX rule (CET-1CEST) is left to Intl
    const named = tz.startsWith('/') ? zoneOfLink(tz) : IANA.test(tz) && (tz.includes('/') || tz === 'UTC') ? canonical(tz) : undefined;
    if (named) return named;
    if (tz === '') return 'UTC';
  } else {
    const link = await readlink(rooted(root, '/etc/localtime')).catch(() => undefined);
    const linked = link && zoneOfLink(link);
    if (linked) return linked;
    const file = (await readText(rooted(root, '/etc/timezone')))?.trim();
    if (file && IANA.test(file)) return canonical(file);
  }
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
