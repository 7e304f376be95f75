// The client part of the TLS bridge (spec §3 pew_tls client part): plain TCP clients of the unit's
// network (a Modbus/TCP master, SCADA) connect to nontls_server_port; each connection is carried
// over TLS to tls_server_host:tls_destination_port, with the minimum version, the CA check and the
// client certificate of the saved section.

import { isIP, type Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { ipInRange } from '../model/ip.ts';
import type { Tls } from '../model/sections/tls.ts';
import { CLIENT_CERT } from '../model/sections/tls.ts';
import { createSecureContext, connect as tlsConnect } from '../net/node-tls.ts';
import type { Logger } from '../system/log.ts';
import { loadPem, MIN_VERSION } from './keys.ts';
import { BridgePart, join } from './part.ts';

export const CLIENT_CERT_FOLDER = 'pew_tls_client';

/** The TLS options of the outgoing connections; reads the certificate files (CertError when one is missing). */
export async function clientTlsOptions(t: Tls, dataDir: string): Promise<ConnectionOptions> {
  const opts: ConnectionOptions = {
    host: t.tls_server_host,
    port: t.tls_destination_port,
    minVersion: MIN_VERSION[t.tls_min_version_client],
    rejectUnauthorized: t.ca_verification_tlsclient,
  };
  // SNI carries host names only (RFC 6066 §3)
  if (isIP(t.tls_server_host) === 0) opts.servername = t.tls_server_host;
  // without an uploaded CA the system's trusted CAs check the server
  if (t.ca_verification_tlsclient && t.tlsclientca !== '') opts.ca = await loadPem(dataDir, CLIENT_CERT_FOLDER, t.tlsclientca, 'cert');
  if (t.tlsclient_certauth === CLIENT_CERT) {
    opts.cert = await loadPem(dataDir, CLIENT_CERT_FOLDER, t.tlsclientcert, 'cert');
    opts.key = await loadPem(dataDir, CLIENT_CERT_FOLDER, t.tlsclientkey, 'key');
  }
  return opts;
}

export class TlsClientPart extends BridgePart {
  private readonly tlsOptions: ConnectionOptions;

  /** Throws when the certificate, key or CA cannot be used (a key that does not match its certificate …). */
  constructor(t: Tls, options: ConnectionOptions, host: string, log: Logger) {
    super({
      name: 'client',
      host,
      port: t.nontls_server_port,
      log,
      allowed: (ip) => !t.nontls_accessability || ipInRange(ip, t.nontls_access_ip1, t.nontls_access_ip2),
    });
    // one context for every connection, built now so that a bad file is reported at start
    const { ca, cert, key, minVersion, ...rest } = options;
    this.tlsOptions = { ...rest, secureContext: createSecureContext({ ca, cert, key, minVersion }) };
  }

  protected carry(client: Socket): void {
    let tcpUp = false;
    let secure = false;
    const out = tlsConnect(this.tlsOptions);
    this.track(out);
    this.trackPlain(client, true);
    out.setNoDelay(true);
    out.once('connect', () => {
      tcpUp = true;
    });
    out.once('secureConnect', () => {
      secure = true;
      this.counters.accepted++;
      join(client, out);
    });
    out.on('error', (e: Error) => {
      if (!secure) {
        // reached, but the handshake failed: certificate, version or protocol refused
        if (tcpUp) this.counters.tlsFailures++;
        else this.counters.errors++;
        this.opts.log.warn('TLS client: no connection to the TLS server', { error: e.message });
      } else this.counters.errors++;
      client.destroy();
    });
    client.on('error', () => out.destroy());
    client.once('close', () => {
      if (!secure) out.destroy();
    });
  }
}
