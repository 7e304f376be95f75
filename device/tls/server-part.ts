// The server part of the TLS bridge (spec §3 pew_tls server part): TLS clients connect to
// tls_server_port; the unit presents its server certificate, asks for and checks a client
// certificate against tlsserverca when tlsserver_certauth is 1, and carries each connection in
// clear text to nontls_server_host:nontls_destination_port (e.g. the PLC's Modbus/TCP port).
import { connect as netConnect, type Socket } from 'node:net';
import type { TLSSocket, TlsOptions, Server as TlsServer } from 'node:tls';
import { ipInRange } from '../model/ip.ts';
import type { Tls } from '../model/sections/tls.ts';
import { CLIENT_CERT } from '../model/sections/tls.ts';
import { createServer as createTlsServer, SERVER_CIPHERS } from '../net/node-tls.ts';
import type { Logger } from '../system/log.ts';
import { type LimitedWarn, limitedWarn } from '../system/log-limit.ts';
import { loadPem, MIN_VERSION } from './keys.ts';
import { BridgePart, join } from './part.ts';

export const SERVER_CERT_FOLDER = 'pew_tls_server';
/** a TLS client that has not finished its handshake by then is dropped */
export const HANDSHAKE_TIMEOUT_MS = 10_000;

/** The TLS options of the listener; reads the certificate files (CertError when one is missing). */
export async function serverTlsOptions(t: Tls, dataDir: string): Promise<TlsOptions> {
  const opts: TlsOptions = {
    cert: await loadPem(dataDir, SERVER_CERT_FOLDER, t.tlsservercert, 'cert'),
    key: await loadPem(dataDir, SERVER_CERT_FOLDER, t.tlsserverkey, 'key'),
    minVersion: MIN_VERSION[t.tls_min_version_server],
    ciphers: SERVER_CIPHERS, // no CBC-SHA1 suites (docs/tls.md TLS-3)
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    allowHalfOpen: true,
  };
  if (t.tlsserver_certauth === CLIENT_CERT) {
    // a client without a certificate, or with one its CA did not sign, fails the handshake
    opts.ca = await loadPem(dataDir, SERVER_CERT_FOLDER, t.tlsserverca, 'cert');
    opts.requestCert = true;
    opts.rejectUnauthorized = true;
  }
  return opts;
}

export class TlsServerPart extends BridgePart {
  private readonly tls: TlsServer;
  /** a peer failing one handshake after another is counted, its warnings rate-limited (docs/hardening.md LOG-2) */
  private readonly handshakeWarnings: LimitedWarn;

  constructor(
    private readonly t: Tls,
    tlsOptions: TlsOptions,
    host: string,
    log: Logger,
  ) {
    super({
      name: 'server',
      host,
      port: t.tls_server_port,
      log,
      allowed: (ip) => !t.tls_accessability || ipInRange(ip, t.tls_access_ip1, t.tls_access_ip2),
    });
    // never listens itself: the part's listener hands it the admitted clients
    this.tls = createTlsServer(tlsOptions, (s) => this.guarded(s, () => this.secured(s)));
    this.handshakeWarnings = limitedWarn(log);
    this.tls.on('tlsClientError', (e: Error, s: TLSSocket) => {
      this.counters.tlsFailures++;
      const client = (s.remoteAddress ?? '').replace(/^::ffff:/, '');
      this.handshakeWarnings.warn(client, 'TLS server: handshake failed', { client, error: e.message });
      s.destroy();
    });
  }

  override async close(): Promise<void> {
    await super.close();
    this.handshakeWarnings.flush();
  }

  protected carry(client: Socket): void {
    this.tls.emit('connection', client);
    client.resume();
  }

  private secured(secure: TLSSocket): void {
    this.track(secure);
    secure.pause();
    const out = netConnect({ host: this.t.nontls_server_host, port: this.t.nontls_destination_port, allowHalfOpen: true });
    this.track(out);
    this.trackPlain(out, false);
    out.setNoDelay(true);
    let up = false;
    out.once('connect', () => {
      up = true;
      this.counters.accepted++;
      join(secure, out);
    });
    out.on('error', (e: Error) => {
      this.counters.errors++;
      if (!up) this.opts.log.warn('TLS server: destination not reachable', { error: e.message });
      secure.destroy();
    });
    secure.on('error', () => out.destroy());
    secure.once('close', () => {
      if (!up) out.destroy();
    });
  }
}
