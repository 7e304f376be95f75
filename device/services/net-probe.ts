// The transport layers of the connection tests (spec §2 service pages, device/model/servicetest.ts):
// a TCP connection, a TLS handshake on it with the section's trust settings, an HTTP CONNECT
// through a proxy, and a text greeting read from a line protocol (SMTP, POP3, IMAP, FTP). Each
// returns what the step shows (address, TLS version and cipher, the peer's first line) and fails
// with the system's or the peer's own words, so a test can name the layer that broke.

import { request as httpRequest } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import type { ConnectionOptions, SecureVersion, TLSSocket } from 'node:tls';
import type { TLS_VERSIONS } from '../model/common.ts';
import { type TestNote, testNote } from '../model/servicetest.ts';
import { connect as tlsConnect } from '../net/node-tls.ts';
import { failureNote, StepFailure } from './test-run.ts';

/** The node name of a section's minimum TLS version (spec §3: none, 1.1, 1.2, 1.3); none = node's default. */
export function minTlsVersion(v: (typeof TLS_VERSIONS)[number]): SecureVersion | undefined {
  return v === 'none' ? undefined : (`TLSv${v}` as SecureVersion);
}

/** What the trust settings of a section give a TLS client. */
export interface TlsTrust {
  /** the uploaded CA (else the system's list) */
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** false: accept a certificate that does not verify */
  verify: boolean;
  minVersion?: SecureVersion;
}

export function tlsOptions(host: string, trust: TlsTrust): ConnectionOptions {
  return {
    host,
    // SNI only for names, never for an IP address (RFC 6066 §3)
    ...(/^[\d.]+$|:/.test(host) ? {} : { servername: host }),
    rejectUnauthorized: trust.verify,
    ...(trust.ca ? { ca: trust.ca } : {}),
    ...(trust.cert ? { cert: trust.cert } : {}),
    ...(trust.key ? { key: trust.key } : {}),
    ...(trust.minVersion ? { minVersion: trust.minVersion } : {}),
  };
}

/** A TCP connection to host:port (closed by the caller). */
export function tcpConnect(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = netConnect({ host, port });
    const fail = (e: Error) => {
      s.destroy();
      reject(e);
    };
    s.once('connect', () => {
      s.off('error', fail);
      // a test socket is short-lived: a late error (reset while closing) must not be unhandled
      s.on('error', () => {});
      resolve(s);
    });
    s.once('error', fail);
  });
}

/** The TLS handshake on `socket` (or a new connection when none is given). */
export function tlsHandshake(host: string, port: number, trust: TlsTrust, socket?: Socket): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ ...tlsOptions(host, trust), ...(socket ? { socket } : { port }) });
    const fail = (e: Error) => {
      s.destroy();
      reject(e);
    };
    // a peer that closes the connection during the handshake leaves no error of its own
    const closed = () => fail(failureNote('peer_error', testNote('closed_in_handshake'), 'the server closed the connection during the TLS handshake'));
    s.once('secureConnect', () => {
      s.off('error', fail);
      s.off('close', closed);
      s.on('error', () => {});
      resolve(s);
    });
    s.once('error', fail);
    s.once('close', closed);
  });
}

/** "TLSv1.3, TLS_AES_256_GCM_SHA384, CN=localhost" */
export function tlsDetail(s: TLSSocket): string {
  const cert = s.getPeerCertificate();
  const cn = cert && typeof cert.subject?.CN === 'string' ? `, CN=${cert.subject.CN}` : '';
  return `${s.getProtocol() ?? 'TLS'}, ${s.getCipher().name}${cn}`;
}

/**
 * A handshake's note with how the certificate was checked: with the uploaded CA, with the system's
 * CAs, or not at all (the section's verification off); `words`, the server's own after it.
 */
export const trustNote = (handshake: string, trust: Pick<TlsTrust, 'ca' | 'verify'> | undefined, words?: string): TestNote =>
  testNote(trust?.verify ? (trust.ca ? 'tls_verified_ca' : 'tls_verified_system') : 'tls_unverified', { handshake }, words);

/** A TLS handshake with `host:port` on a new connection, closed again; the handshake (tlsDetail) it made. */
export async function probeTls(host: string, port: number, trust: TlsTrust): Promise<string> {
  const s = await tlsHandshake(host, port, trust);
  const detail = tlsDetail(s);
  s.destroy();
  return detail;
}

/** A tunnel to target through an HTTP proxy (CONNECT); 407 is a wrong proxy login. */
export function httpConnectTunnel(proxy: { host: string; port: number; user?: string; password?: string }, target: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: target };
    if (proxy.user) headers['proxy-authorization'] = `Basic ${Buffer.from(`${proxy.user}:${proxy.password ?? ''}`).toString('base64')}`;
    const req = httpRequest({ host: proxy.host, port: proxy.port, method: 'CONNECT', path: target, headers });
    req.once('connect', (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      const line = `${res.statusCode} ${res.statusMessage ?? ''}`.trim();
      if (res.statusCode === 407) return reject(failureNote('auth_failed', testNote('proxy_answer', undefined, line), `proxy: ${line}`));
      // the proxy reached nothing at the target, or may not go there
      reject(
        failureNote(res.statusCode === 502 || res.statusCode === 504 ? 'refused' : 'peer_error', testNote('proxy_answer', undefined, line), `proxy: ${line}`),
      );
    });
    req.once('error', reject);
    req.end();
  });
}

/** Reads the first reply of a line protocol; `ok` says whether it is a ready greeting. */
export function readGreeting(s: Socket, ok: (line: string) => boolean, ms = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const done = (e?: Error, line?: string) => {
      clearTimeout(timer);
      s.off('data', onData);
      s.off('error', onError);
      s.off('close', onClose);
      if (e) reject(e);
      else resolve(line!);
    };
    const onData = (d: Buffer) => {
      buf += d.toString('latin1');
      const end = buf.indexOf('\n');
      if (end < 0) return;
      const line = buf.slice(0, end).replace(/\r$/, '');
      if (ok(line)) done(undefined, line);
      else done(new StepFailure('peer_error', line));
    };
    const onError = (e: Error) => done(e);
    const onClose = () =>
      done(
        buf
          ? failureNote('bad_reply', testNote('closed_after', undefined, buf.trim()), `the server closed the connection after: ${buf.trim()}`)
          : failureNote('bad_reply', testNote('closed_without_greeting'), 'the server closed the connection without a greeting'),
      );
    const timer = setTimeout(() => done(failureNote('timeout', testNote('no_greeting_within', { ms }), `no greeting within ${ms} ms`)), ms);
    s.on('data', onData);
    s.once('error', onError);
    s.once('close', onClose);
  });
}

/**
 * Sends one command line and reads the one-line reply (SMTP EHLO's multi-line reply up to its last
 * line); lines `skip` accepts come before the reply and are passed over (IMAP's untagged `* …`).
 */
export async function command(
  s: Socket,
  line: string,
  ok: (reply: string) => boolean,
  ms = 10_000,
  skip: (line: string) => boolean = () => false,
): Promise<string> {
  const reply = new Promise<string>((resolve, reject) => {
    let buf = '';
    const done = (e?: Error, r?: string) => {
      clearTimeout(timer);
      s.off('data', onData);
      s.off('error', onError);
      if (e) reject(e);
      else resolve(r!);
    };
    const onData = (d: Buffer) => {
      buf += d.toString('latin1');
      const lines = buf.split('\r\n');
      // an SMTP multi-line reply goes on while the fourth character is a hyphen
      const last = lines.slice(0, -1).find((l) => !/^\d{3}-/.test(l) && !skip(l));
      if (last === undefined) return;
      if (ok(last)) done(undefined, last);
      else done(new StepFailure('peer_error', last));
    };
    const onError = (e: Error) => done(e);
    const command = line.split(' ')[0] ?? '';
    const timer = setTimeout(
      () => done(failureNote('timeout', testNote('no_answer_to_within', { command, ms }), `no answer to ${command} within ${ms} ms`)),
      ms,
    );
    s.on('data', onData);
    s.once('error', onError);
  });
  s.write(`${line}\r\n`);
  return reply;
}
