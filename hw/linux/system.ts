// Parsers for the system files behind SystemInfo: pure functions over file text, so each format
// is tested on its own.
import { endianness } from 'node:os';
import { lines } from './files.ts';

/** `NAME` and `VERSION_ID` (else `VERSION`) of an os-release file (freedesktop os-release(5)). */
export function parseOsRelease(text: string): { name?: string; version?: string } {
  const vars = new Map<string, string>();
  for (const line of lines(text)) {
    if (line.startsWith('#')) continue;
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line);
    if (m) vars.set(m[1]!, unquote(m[2]!));
  }
  const name = vars.get('NAME');
  const version = vars.get('VERSION_ID') ?? vars.get('VERSION');
  return { ...(name ? { name } : {}), ...(version ? { version } : {}) };
}

// os-release values are shell-style: "double" (with backslash escapes) or 'single' quoted.
function unquote(v: string): string {
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1);
  return v;
}

/** Whole seconds since boot from /proc/uptime ("12345.67 54321.00"). */
export function parseUptime(text: string): number | undefined {
  const n = Number.parseFloat(text.trim().split(/\s+/)[0] ?? '');
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
}

const RTF_UP = 0x1;
const RTF_GATEWAY = 0x2;

/**
 * The default gateway from /proc/net/route: the up route to 0.0.0.0/0 via a gateway with the
 * lowest metric, or '' when there is none.
 */
export function parseDefaultGateway(text: string, order: 'LE' | 'BE' = endianness()): string {
  let best: { gw: string; metric: number } | undefined;
  for (const line of lines(text).slice(1)) {
    const f = line.split(/\s+/);
    const [, dest, gw, flagsHex, , , metricStr, mask] = f;
    if (dest !== '00000000' || mask !== '00000000' || !gw || !flagsHex) continue;
    const flags = Number.parseInt(flagsHex, 16);
    if ((flags & RTF_UP) === 0 || (flags & RTF_GATEWAY) === 0) continue;
    const ip = hexToIpv4(gw, order);
    const metric = Number.parseInt(metricStr ?? '0', 10) || 0;
    if (ip && (!best || metric < best.metric)) best = { gw: ip, metric };
  }
  return best?.gw ?? '';
}

// The kernel prints the address as a host-order u32 in hex, so on little-endian CPUs (the unit's
// i.MX and every laptop) the bytes read backwards: 0100A8C0 is 192.168.0.1.
function hexToIpv4(hex: string, order: 'LE' | 'BE'): string | undefined {
  if (!/^[0-9A-Fa-f]{8}$/.test(hex)) return undefined;
  const bytes = [0, 2, 4, 6].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return (order === 'LE' ? bytes.reverse() : bytes).join('.');
}

/** `nameserver` entries of resolv.conf, in order, without duplicates. */
export function parseResolvConf(text: string): string[] {
  return keywordArgs(text, ['nameserver']);
}

/** `server` and `pool` entries of ntp.conf, in order, without duplicates. */
export function parseNtpConf(text: string): string[] {
  return keywordArgs(text, ['server', 'pool']);
}

function keywordArgs(text: string, keywords: string[]): string[] {
  const out: string[] = [];
  for (const line of lines(text)) {
    const [kw, arg] = line
      .replace(/[#;].*$/, '')
      .trim()
      .split(/\s+/);
    if (kw && arg && keywords.includes(kw) && !out.includes(arg)) out.push(arg);
  }
  return out;
}

/** Installed apps from apps.json: `[{ name, version }]`; anything else is ignored. */
export function parseApps(text: string): { name: string; version: string }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((a: unknown) => {
    if (a === null || typeof a !== 'object') return [];
    const { name, version } = a as Record<string, unknown>;
    return typeof name === 'string' && typeof version === 'string' ? [{ name, version }] : [];
  });
}
