// The `connect` step of the database tests (sql-test.ts, nosql-test.ts; device/model/servicetest.ts):
// name resolution and the TCP handshake only, before a client library talks to the peer, so a wrong
// host or port is reported as such and not as whatever the library makes of it. The connection
// itself is net-probe.ts's.
import { tcpConnect } from './net-probe.ts';

/** Opens and closes one TCP connection to host:port; resolves with the address reached. */
export async function reachTcp(host: string, port: number): Promise<string> {
  const s = await tcpConnect(host, port);
  const address = `${s.remoteAddress ?? host}:${s.remotePort ?? port}`;
  s.destroy();
  return address;
}
