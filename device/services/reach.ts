// Reaching a peer over TCP before a client library talks to it (the `connect` step of the service
// tests, device/model/servicetest.ts): name resolution and the TCP handshake only, so a wrong host or
// port is reported as such and not as whatever the client library makes of it. For peers that speak
// TLS from the first byte (HTTPS, MongoDB with TLS) the handshake alone is the `tls` step.
import { connect, isIP } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** Opens and closes one TCP connection to host:port; resolves with the address reached. */
export function reachTcp(host: string, port: number, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    socket.setTimeout(ms);
    socket.once('connect', () => {
      const address = `${socket.remoteAddress ?? host}:${socket.remotePort ?? port}`;
      socket.destroy();
      resolve(address);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(Object.assign(new Error(`connect to ${host}:${port}: no answer within ${ms} ms`), { code: 'ETIMEDOUT' }));
    });
    socket.once('error', (e) => {
      socket.destroy();
      reject(e);
    });
  });
}

export interface TlsTrust {
  /** the CA to trust; undefined: the system's CAs */
  ca?: Buffer;
  /** false: any certificate is accepted (the section's ca_verification off) */
  verify: boolean;
}

/** One TLS handshake with host:port; resolves with the protocol agreed (e.g. TLSv1.3). */
export function reachTls(host: string, port: number, trust: TlsTrust, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host, port, ca: trust.ca, rejectUnauthorized: trust.verify, ...(isIP(host) ? {} : { servername: host }) });
    socket.setTimeout(ms);
    socket.once('secureConnect', () => {
      const protocol = socket.getProtocol() ?? 'TLS';
      socket.destroy();
      resolve(protocol);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(Object.assign(new Error(`TLS handshake with ${host}:${port}: no answer within ${ms} ms`), { code: 'ETIMEDOUT' }));
    });
    socket.once('error', (e) => {
      socket.destroy();
      reject(e);
    });
  });
}
