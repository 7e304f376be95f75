// The Ethernet interface (COM4): a TCP connection to the PLC's `ip_port` as a ByteChannel.
import { connect } from 'node:net';
import type { ByteChannel } from '../../hw/types.ts';
import { reason, type StatusReason } from '../model/reasons.ts';

export class TcpOpenError extends Error {
  constructor(
    readonly refused: boolean,
    message: string,
    readonly reason: StatusReason,
  ) {
    super(message);
  }
}

/** "a.b.c.d:port" → host and port (the pew schema has checked the form). */
export function parseIpPort(text: string): { host: string; port: number } {
  const at = text.lastIndexOf(':');
  return { host: text.slice(0, at), port: Number(text.slice(at + 1)) };
}

export function openTcpChannel(host: string, port: number, timeoutMs: number): Promise<ByteChannel> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setNoDelay(true);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new TcpOpenError(false, `No connection to ${host}:${port} within ${timeoutMs} ms`, reason('tcp_no_connection', { host, port, ms: timeoutMs })));
    }, timeoutMs);
    socket.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const refused = e.code === 'ECONNREFUSED';
      const why = refused ? reason('tcp_refused', { host, port }) : reason('open_failed', undefined, `${host}:${port}: ${e.message}`);
      reject(new TcpOpenError(refused, refused ? `TCP port ${port} of ${host} is not open` : `${host}:${port}: ${e.message}`, why));
    });
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      let onData: (b: Uint8Array) => void = () => {};
      let onClose: (e?: Error) => void = () => {};
      let closing = false;
      let lastError: Error | undefined;
      socket.on('data', (b: Buffer) => onData(b)); // a Buffer is a Uint8Array
      socket.on('error', (e) => {
        lastError = e;
      });
      socket.on('close', () => {
        if (!closing) onClose(lastError ?? new Error(`${host}:${port} closed the connection`));
      });
      resolve({
        write: (bytes) => {
          if (!socket.destroyed) socket.write(bytes);
        },
        onData: (h) => {
          onData = h;
        },
        onClose: (h) => {
          onClose = h;
        },
        get isOpen() {
          return !socket.destroyed;
        },
        close: () =>
          new Promise<void>((done) => {
            closing = true;
            if (socket.destroyed) return done();
            socket.once('close', () => done());
            socket.destroy();
          }),
      });
    });
  });
}
