// A cap on the connections one source address holds open to the console's server (issue 16 item 9;
// security.md DOS-1): a browser opens about six, so one address holding dozens is a client gone
// wrong or an attack that would otherwise take every socket and file descriptor of the unit. A
// connection over the cap gets a short 429 answer (code too_many_connections) and is closed before
// the HTTP server sees it; the others of that address, and every other address, go on.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { envelope } from './errors.ts';

export const MAX_CONNECTIONS_PER_ADDRESS = 64;
// a refused client that does not read its answer is not waited for
const REFUSED_LINGER_MS = 2000;

function refuse(socket: Socket, max: number): void {
  const body = JSON.stringify(envelope('too_many_connections', `Too many open connections from this address (at most ${max})`, { params: { max } }));
  socket.on('error', () => undefined);
  socket.setTimeout(REFUSED_LINGER_MS, () => socket.destroy());
  socket.resume(); // whatever the client sends is read and dropped, so the close is not a reset
  socket.end(
    'HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nRetry-After: 1\r\nConnection: close\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Puts the cap in front of the server's own connection handling. */
export function capConnectionsPerAddress(server: Server, max = MAX_CONNECTIONS_PER_ADDRESS): void {
  const open = new Map<string, number>();
  const handlers = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const n = (open.get(address) ?? 0) + 1;
    if (n > max) return refuse(socket, max);
    open.set(address, n);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
    for (const h of handlers) h.call(server, socket);
  });
}
