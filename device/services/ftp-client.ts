// The FTP client set-up of pew_ftpc (spec §3 FTP, §9 FTP port 21), shared by the connection test
// and the FTP send engine: plain, explicit FTPS (AUTH TLS) or implicit SSL, the server certificate
// checked against the section's CA unless verification is off, passive or active data connections,
// binary or ASCII transfers, and an FTP proxy. Each stage of the set-up runs through `stage`, so
// the test can time and report it and the engine can simply run it.

import { type AddressInfo, createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import type { ConnectionOptions, TLSSocket } from 'node:tls';
import type { Client, FTPError, FTPResponse } from 'basic-ftp';
import type { Ftpc } from '../model/sections/ftpc.ts';
import { type TestNote, type TestStep, testNote } from '../model/servicetest.ts';
import { connect as tlsConnect } from '../net/node-tls.ts';
import { readCert } from '../system/cert-files.ts';
import { drivers } from './drivers.ts';
import { type TlsTrust, tlsDetail, tlsOptions, trustNote } from './net-probe.ts';

/** Runs one stage of the set-up; `detail` says what it reached. */
export type Stage = <T>(name: TestStep, fn: () => Promise<T>, note?: (v: T) => TestNote | undefined) => Promise<T>;
const direct: Stage = (_name, fn) => fn();

export interface FtpTarget {
  /** where the control connection goes: the server, or the proxy */
  host: string;
  port: number;
  /** the user name sent: the server user, or `user@server[:port]` through a proxy */
  user: string;
  via?: string;
}

/**
 * Where the control connection goes and how the login reads. With a proxy (proxy_ip set) the
 * connection goes to the proxy; with proxy_mode_ascii the proxy is told the server in the user
 * name (`USER user@host[:port]`, the common FTP proxy login), else it is a relay that forwards
 * the connection to its one server and the login is the server's own.
 */
export function ftpTarget(f: Ftpc): FtpTarget {
  const user = f.server_user || 'anonymous';
  if (!f.proxy_ip) return { host: f.server_ip, port: f.server_port, user };
  const server = f.server_port === 21 ? f.server_ip : `${f.server_ip}:${f.server_port}`;
  return { host: f.proxy_ip, port: f.proxy_port, user: f.proxy_mode_ascii ? `${user}@${server}` : user, via: `${f.proxy_ip}:${f.proxy_port}` };
}

export async function ftpTrust(f: Ftpc, dataDir: string): Promise<TlsTrust> {
  const [ca, cert, key] = await Promise.all([
    readCert(dataDir, 'pew_ftpc', f.ca),
    readCert(dataDir, 'pew_ftpc', f.client),
    readCert(dataDir, 'pew_ftpc', f.key),
  ]);
  return { verify: f.transfermode_verify_ssl, ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Active mode (PORT): the server connects back to a port the unit opens. The library only knows
 * passive mode and wants the data socket before the transfer command goes out, so it gets one end
 * of a loopback pair at once, and the other end is joined to the server's connection (with TLS
 * when the control connection has it, the unit being the TLS client) once the server connects.
 */
function activeMode(localIp: string) {
  return async (ftp: Client['ftp']): Promise<FTPResponse> => {
    const control = ftp.socket;
    const address = localIp || control.localAddress?.replace(/^::ffff:/, '') || '127.0.0.1';
    const incoming = createServer();
    const pair = createServer();
    const [port, pairPort] = await Promise.all([listen(incoming, address), listen(pair, '127.0.0.1')]);
    const near = netConnect({ host: '127.0.0.1', port: pairPort });
    const far = await new Promise<Socket>((resolve) => pair.once('connection', resolve));
    pair.close();
    far.on('error', () => near.destroy());
    incoming.once('connection', (raw) => {
      incoming.close();
      const tls = 'getCipher' in control;
      const data: Socket | TLSSocket = tls
        ? tlsConnect({ ...(ftp.tlsOptions as ConnectionOptions), socket: raw, session: ftp.tlsSessionStore ?? (control as TLSSocket).getSession() })
        : raw;
      data.on('error', (e) => near.destroy(e));
      far.pipe(data);
      data.pipe(far);
    });
    near.once('close', () => {
      incoming.close();
      far.destroy();
    });
    ftp.dataSocket = near;
    // RFC 959 PORT for IPv4, RFC 2428 EPRT for an IPv6 control connection
    if (address.includes(':')) return ftp.request(`EPRT |2|${address}|${port}|`);
    const [a, b, c, d] = address.split('.');
    return ftp.request(`PORT ${a},${b},${c},${d},${port >> 8},${port & 255}`);
  };
}

export interface FtpOpenOptions {
  /** reports a stage; the engine passes none */
  stage?: Stage;
  timeoutMs?: number;
}

/**
 * A logged-in client for pew_ftpc in the section's transfer mode. Stages: connect (or proxy), tls
 * (FTPS or SSL), login (with the default settings, TYPE A for ASCII). Closing is the caller's.
 */
/** basic-ftp once loaded (drivers.ts: only when FTP is first used). */
let ftpLib: Awaited<ReturnType<typeof drivers.ftp>> | undefined;

/**
 * An error of the FTP protocol (a refusal with its reply code). Only a loaded basic-ftp makes them:
 * before that no FTP error can exist.
 */
export const isFtpError = (e: unknown): e is FTPError => ftpLib !== undefined && e instanceof ftpLib.FTPError;

export async function openFtp(f: Ftpc, dataDir: string, opts: FtpOpenOptions = {}): Promise<Client> {
  const stage = opts.stage ?? direct;
  const target = ftpTarget(f);
  ftpLib ??= await drivers.ftp();
  const client = new ftpLib.Client(opts.timeoutMs ?? 10_000);
  try {
    const trust = f.transfermode_ftps || f.transfermode_ssl ? await ftpTrust(f, dataDir) : undefined;
    const tls = trust ? tlsOptions(f.server_ip, trust) : undefined;
    const first: TestStep = target.via ? 'proxy' : 'connect';
    if (f.transfermode_ssl && tls) {
      // implicit TLS: the handshake is the first thing on the connection
      await stage(
        first,
        () =>
          new Promise<void>((resolve, reject) => {
            const s = netConnect({ host: target.host, port: target.port }, () => {
              s.destroy();
              resolve();
            });
            s.once('error', reject);
          }),
        () => testNote('reached', { address: `${target.host}:${target.port}` }),
      );
      await stage(
        'tls',
        () => client.connectImplicitTLS(target.host, target.port, tls),
        (r) => trustNote(tlsDetail(client.ftp.socket as TLSSocket), trust, r.message),
      );
    } else {
      await stage(
        first,
        () => client.connect(target.host, target.port),
        (r) => testNote('greeting', { server: target.via ?? 'FTP' }, r.message),
      );
      if (f.transfermode_ftps && tls)
        await stage(
          'tls',
          () => client.useTLS(tls),
          () => trustNote(tlsDetail(client.ftp.socket as TLSSocket), trust),
        );
    }
    await stage(
      'login',
      async () => {
        const r = await client.login(target.user, f.server_password);
        await client.useDefaultSettings();
        if (f.transfermode_ascii) await client.send('TYPE A');
        return r;
      },
      (r) => testNote(f.transfermode_ascii ? 'login_ascii' : 'login_reply', undefined, r.message),
    );
    if (!f.transfermode_passive) client.prepareTransfer = activeMode(f.local_ip);
    return client;
  } catch (e) {
    client.close();
    throw e;
  }
}
