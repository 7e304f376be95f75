// Test support: the peers of the red team's denial-of-service repros (issue 34; docs/hardening.md),
// for the integration tests and `npm run bench -- security`. Each leaves from a source address of
// its own on loopback (Linux routes all of 127/8 to lo): sockets that never finish their headers,
// connections that drip a body one byte at a time, and an allowed client's run of requests.
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { LOOPBACK } from './ports.ts';

/** A set of connections of an attack: how many the server still holds open, and the end of them. */
export interface Held {
  sockets: Socket[];
  /** connections the server has not closed yet */
  open(): number;
  /** ms from the opening to the close of each closed connection */
  closedAfterMs(): number[];
  /** the status line of each answer the server sent (e.g. `HTTP/1.1 429 Too Many Requests`) */
  answers(): string[];
  stop(): void;
}

export interface HoldOptions {
  port: number;
  /** source addresses; the connections are spread over them in turn */
  from: readonly string[];
  count: number;
  /** what each sends once connected (e.g. the first half of its headers) */
  first?: string;
  /** a byte sent every `everyMs` after `first` (a drip), none when absent */
  drip?: { everyMs: number };
  tls?: boolean;
}

/** Opens `count` connections and resolves once each is connected (or already refused and closed). */
export async function hold(o: HoldOptions): Promise<Held> {
  const sockets: Socket[] = [];
  const closedAt = new Map<Socket, number>();
  const openedAt = new Map<Socket, number>();
  const timers: ReturnType<typeof setInterval>[] = [];
  const received = new Map<Socket, string>();
  const opened = Array.from({ length: o.count }, (_, i) => {
    const localAddress = o.from[i % o.from.length]!;
    const tcp = connect({ host: LOOPBACK, port: o.port, localAddress });
    const s: Socket = o.tls ? tlsConnect({ socket: tcp, rejectUnauthorized: false }) : tcp;
    tcp.on('error', () => undefined);
    sockets.push(s);
    openedAt.set(s, performance.now());
    s.on('error', () => undefined);
    s.on('data', (b: Buffer) => received.set(s, (received.get(s) ?? '') + b.toString('latin1')));
    s.once('close', () => closedAt.set(s, performance.now()));
    return new Promise<void>((resolve) => {
      s.once(o.tls ? 'secureConnect' : 'connect', () => {
        if (o.first) s.write(o.first);
        if (o.drip) {
          const t = setInterval(() => {
            if (!s.destroyed) s.write('x');
          }, o.drip.everyMs);
          timers.push(t);
        }
        resolve();
      });
      s.once('close', () => resolve());
    });
  });
  await Promise.all(opened);
  return {
    sockets,
    open: () => sockets.length - closedAt.size,
    closedAfterMs: () => [...closedAt].map(([s, t]) => t - openedAt.get(s)!),
    answers: () => [...received.values()].map((text) => text.split('\r\n')[0]!),
    stop: () => {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
    },
  };
}

/** The request line and headers of a request that never ends its headers. */
export const UNFINISHED_HEADERS = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';

/** The headers of a POST whose body of `length` bytes is still to come. */
export const bodyToCome = (path: string, length = 1000) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** `count` GETs of `path` one after another from `from`, each on a connection of its own: how many were answered with `status`. */
export async function served(port: number, path: string, from: string, count: number, status = 200): Promise<number> {
  let ok = 0;
  for (let i = 0; i < count; i++) {
    const got = await new Promise<number>((resolve) => {
      const req = httpRequest({ host: LOOPBACK, port, path, agent: false, localAddress: from }, (res) => {
        res.resume();
        res.once('end', () => resolve(res.statusCode ?? 0));
      });
      req.once('error', () => resolve(0));
      req.setTimeout(10_000, () => req.destroy());
      req.end();
    });
    if (got === status) ok++;
  }
  return ok;
}

/** Source addresses 127.0.`net`.1 … 127.0.`net`.`n`. */
export const addresses = (net: number, n: number): string[] => Array.from({ length: n }, (_, i) => `127.0.${net}.${i + 1}`);
