// TCP ports the system listens on, from /proc/net/tcp and /proc/net/tcp6, so that a configured
// port already taken by the system can be rejected (spec §5).
import { readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { lines, readText, rooted } from './files.ts';

const TCP_LISTEN = '0A'; // include/net/tcp_states.h: TCP_LISTEN = 10

/** A listening socket: its local port and its inode (which ties it to the process that owns it). */
export interface Listener {
  port: number;
  inode: string;
}

/**
 * Listening sockets of a /proc/net/tcp(6) table. Columns: sl, local_address (hex addr:hex port),
 * rem_address, st, tx:rx queue, tr:when, retrnsmt, uid, timeout, inode, ...
 */
export function parseProcNetTcp(text: string): Listener[] {
  const out: Listener[] = [];
  for (const line of lines(text).slice(1)) {
    const f = line.split(/\s+/);
    const local = f[1];
    const st = f[3];
    const inode = f[9];
    if (!local || st?.toUpperCase() !== TCP_LISTEN) continue;
    const port = Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16);
    if (Number.isInteger(port) && port > 0 && port <= 65535) out.push({ port, inode: inode ?? '' });
  }
  return out;
}

/** Inodes of the sockets this process holds, from the `socket:[inode]` links in /proc/self/fd. */
export async function ownSocketInodes(fdDir: string): Promise<Set<string>> {
  const inodes = new Set<string>();
  const fds = await readdir(fdDir).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(path.join(fdDir, fd)).catch(() => '');
    const m = /^socket:\[(\d+)\]$/.exec(target);
    if (m) inodes.add(m[1]!);
  }
  return inodes;
}

/**
 * Listening TCP ports, IPv4 and IPv6, unique and ascending. Sockets of this daemon's own process
 * are left out: they are its configured listeners, which must not count as "taken by the system"
 * when their own configuration is saved again.
 */
export async function readSystemTcpPorts(root: string): Promise<number[]> {
  const own = await ownSocketInodes(rooted(root, '/proc/self/fd'));
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const text = await readText(rooted(root, table));
    if (text === undefined) continue;
    for (const l of parseProcNetTcp(text)) if (!own.has(l.inode)) ports.add(l.port);
  }
  return [...ports].sort((a, b) => a - b);
}
