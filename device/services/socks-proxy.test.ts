import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LOOPBACK } from '../../test/support/ports.ts';
import { proxyAddress, socksConnect, socksFailure, socksProxyOf } from './socks-proxy.ts';

/** A SOCKS5 proxy that answers the CONNECT and, in the same write, the server's greeting (as a fast server behind it would). */
async function proxyWithGreeting(greeting: string): Promise<{ port: number; close: () => void }> {
  const server = createServer((s) => {
    s.on('error', () => {});
    let stage = 0;
    s.on('data', () => {
      // the client's method offer, then its CONNECT request (each one write from the socks library)
      if (stage++ === 0) s.write(Buffer.from([5, 0]));
      else s.write(Buffer.concat([Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 25]), Buffer.from(greeting)]));
    });
  });
  server.listen(0, LOOPBACK);
  await once(server, 'listening');
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

/** The first data a reader that attaches `turns` event-loop turns after the connection is handed over receives. */
async function firstWords(socket: Socket, turns: number): Promise<string> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  return chunk.toString();
}

describe('SOCKS proxy', () => {
  it("the section's proxy: none while its address is empty; IPv6 in brackets", () => {
    expect(socksProxyOf({ proxy_ip: '', proxy_port: 1080 })).toBeUndefined();
    expect(socksProxyOf({ proxy_ip: 'socks.example', proxy_port: 1081 })).toEqual({ host: 'socks.example', port: 1081 });
    expect(proxyAddress({ host: 'fd00::1', port: 1080 })).toBe('[fd00::1]:1080');
  });

  it("the proxy's SOCKS5 replies and failures as a reason", () => {
    expect(socksFailure('Socks5 proxy rejected connection - ConnectionRefused')).toBe('refused');
    expect(socksFailure('Socks5 proxy rejected connection - HostUnreachable')).toBe('refused');
    expect(socksFailure('Socks5 proxy rejected connection - TTLExpired')).toBe('timeout');
    expect(socksFailure('Socks5 proxy rejected connection - NotAllowed')).toBe('peer_error');
    expect(socksFailure('Proxy connection timed out')).toBe('timeout');
    expect(socksFailure('Socket closed')).toBe('bad_reply');
  });

  it("the server's greeting that came with the proxy's reply reaches a reader that attaches at once, or turns later (as nodemailer does)", async () => {
    const proxy = await proxyWithGreeting('220 mail.example ESMTP\r\n');
    try {
      for (const turns of [0, 1, 3]) {
        const socket = await socksConnect({ host: LOOPBACK, port: proxy.port }, LOOPBACK, 25);
        try {
          expect(await firstWords(socket, turns), `reader ${turns} turns late`).toBe('220 mail.example ESMTP\r\n');
        } finally {
          socket.destroy();
        }
      }
    } finally {
      proxy.close();
    }
  });
});
