// Connections through a section's SOCKS5 proxy (pew_email proxy_ip, proxy_port; docs/services.md
// "E-mail"): a TCP connection to the proxy, then the proxy's CONNECT to the server, spoken by the
// `socks` library. The server's name goes to the proxy as it is (the proxy resolves it). Each
// failure names the proxy and is classified like a direct connection's: the proxy not reachable
// by its own errno, the proxy's refusal to reach the server by its SOCKS reply.
import type { Socket } from 'node:net';
import type { TestFailure } from '../model/servicetest.ts';
import { drivers } from './drivers.ts';
import { tcpConnect } from './net-probe.ts';
import { classify, StepFailure } from './test-run.ts';

export interface SocksProxy {
  host: string;
  port: number;
}

/** How a client reaches host:port: directly, or through the proxy. */
export type Connect = (host: string, port: number) => Promise<Socket>;

/** The section's proxy, or none when its address is empty. */
export const socksProxyOf = (s: { proxy_ip: string; proxy_port: number }): SocksProxy | undefined =>
  s.proxy_ip ? { host: s.proxy_ip, port: s.proxy_port } : undefined;

/** "proxy.example:1080", "[fd00::1]:1080" */
export const proxyAddress = (p: SocksProxy): string => (p.host.includes(':') ? `[${p.host}]:${p.port}` : `${p.host}:${p.port}`);

/** The SOCKS5 replies (RFC 1928 §6) as the reason of a failed connection. */
const REPLY_REASON: Record<string, TestFailure> = {
  ConnectionRefused: 'refused',
  HostUnreachable: 'refused',
  NetworkUnreachable: 'refused',
  TTLExpired: 'timeout',
  NotAllowed: 'peer_error',
  Failure: 'peer_error',
  CommandNotSupported: 'peer_error',
  AddressNotSupported: 'peer_error',
};

/** What the `socks` library's message ("Socks5 proxy rejected connection - ConnectionRefused") says went wrong. */
export function socksFailure(message: string): TestFailure {
  const reply = / - (\w+)$/.exec(message)?.[1];
  if (reply) return REPLY_REASON[reply] ?? 'peer_error';
  if (/timed out/i.test(message)) return 'timeout';
  return 'bad_reply'; // the proxy closed or answered something that is not SOCKS5
}

/**
 * The server's first words kept for the connection's reader. The `socks` library hands over the
 * socket paused and, one event-loop turn later, re-emits what came with its reply and resumes the
 * socket; a reader that attaches later (nodemailer does, a turn after it is given the connection)
 * would miss an SMTP greeting that arrived that early, and wait for it until its timeout. What
 * arrives before the first reader is held and given to it, in order, before anything newer.
 */
export function keepFirstWords(socket: Socket): Socket {
  const held: Buffer[] = [];
  const hold = (chunk: Buffer) => held.push(chunk);
  socket.on('data', hold);
  const onReader = (event: string | symbol) => {
    if (event !== 'data') return;
    socket.off('newListener', onReader);
    // after the reader's listener is in place, and before the next read from the network
    process.nextTick(() => {
      socket.off('data', hold);
      for (const chunk of held.splice(0)) socket.emit('data', chunk);
    });
  };
  socket.on('newListener', onReader);
  return socket;
}

/** A connection to host:port through the SOCKS5 proxy (closed by the caller). */
export async function socksConnect(proxy: SocksProxy, host: string, port: number, ms = 15_000): Promise<Socket> {
  const at = `SOCKS proxy ${proxyAddress(proxy)}`;
  let toProxy: Socket;
  try {
    toProxy = await tcpConnect(proxy.host, proxy.port);
  } catch (e) {
    const f = classify(e);
    throw new StepFailure(f.reason, `${at}: ${f.message}`);
  }
  try {
    const { SocksClient } = await drivers.socks();
    const { socket } = await SocksClient.createConnection({
      proxy: { host: proxy.host, port: proxy.port, type: 5 },
      destination: { host, port },
      command: 'connect',
      existing_socket: toProxy,
      timeout: ms,
    });
    return keepFirstWords(socket);
  } catch (e) {
    toProxy.destroy();
    const message = e instanceof Error ? e.message : String(e);
    throw new StepFailure(socksFailure(message), `${at} to ${host}:${port}: ${message}`);
  }
}

/** The way to the section's servers: through its proxy when one is set, else directly. */
export const connectorOf = (proxy: SocksProxy | undefined): Connect => (proxy ? (host, port) => socksConnect(proxy, host, port) : tcpConnect);
