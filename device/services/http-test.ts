// The connection test of the HTTP client (spec §3 pew_httpc; device/model/servicetest.ts) on the
// saved settings: through the proxy when one is set (HTTP CONNECT with the proxy's user and
// password), else a TCP connection; the TLS handshake for https (the section's CA, verification as
// set); then one GET of server_addr with the headers the requests carry (httpc/headers.ts: the
// server user's basic authentication, the section's Content-Type and custom headers). The status
// line is the detail; 401 (and the proxy's 407) mean a wrong login, 404 a wrong path.
import { STATUS_CODES } from 'node:http';
import type { Dispatcher } from 'undici';
import { basicAuth, requestHeaders } from '../httpc/headers.ts';
import type { Httpc } from '../model/sections/httpc.ts';
import { type ServiceTestResult, testNote } from '../model/servicetest.ts';
import { readCert } from '../system/cert-files.ts';
import { drivers } from './drivers.ts';
import { httpConnectTunnel, probeTls, type TlsTrust, tcpConnect, tlsDetail, tlsHandshake, tlsOptions, trustNote } from './net-probe.ts';
import { runTest, StepFailure } from './test-run.ts';

export async function httpTrust(h: Httpc, dataDir: string): Promise<TlsTrust> {
  const [ca, cert, key] = await Promise.all([
    readCert(dataDir, 'pew_httpc', h.ca),
    readCert(dataDir, 'pew_httpc', h.client),
    readCert(dataDir, 'pew_httpc', h.key),
  ]);
  return { verify: h.transfermode_verify_ssl, ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

/** How the client reaches server_addr: directly or through the proxy, with the section's TLS trust. */
export async function httpDispatcher(h: Httpc, host: string, trust: TlsTrust): Promise<Dispatcher> {
  const { Agent, ProxyAgent } = await drivers.undici();
  const { host: _h, ...tls } = tlsOptions(host, trust);
  if (!h.proxy_addr) return new Agent({ connect: { ...tls, timeout: 10_000 } });
  return new ProxyAgent({
    uri: `http://${h.proxy_addr}:${h.proxy_port}`,
    ...(h.proxy_user ? { token: basicAuth(h.proxy_user, h.proxy_password) } : {}),
    requestTls: tls,
  });
}

/** ` with X-A, X-B`: the custom headers by name (a secret value is never shown), or nothing. */

/** A status that fails the test: 401/407 wrong login, 404 wrong path, any other 4xx/5xx the server's error. */
export function statusFailure(status: number, line: string): StepFailure | undefined {
  if (status === 401 || status === 407) return new StepFailure('auth_failed', line);
  if (status === 404 || status === 410) return new StepFailure('not_found', line);
  if (status >= 400) return new StepFailure('peer_error', line);
  return undefined;
}

export async function testHttp(h: Httpc, dataDir: string): Promise<ServiceTestResult> {
  const url = new URL(h.server_addr);
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port) || (https ? 443 : 80);
  const trust = await httpTrust(h, dataDir);
  const peer = h.proxy_addr ? `${url.href} via ${h.proxy_addr}:${h.proxy_port}` : url.href;
  return runTest(peer, async (t) => {
    if (h.proxy_addr) {
      const proxy = { host: h.proxy_addr, port: h.proxy_port, user: h.proxy_user, password: h.proxy_password };
      const tunnel = await t.step('proxy', () => httpConnectTunnel(proxy, `${host}:${port}`), {
        note: () => testNote('proxy_tunnel', { target: `${host}:${port}`, proxy: `${h.proxy_addr}:${h.proxy_port}` }),
      });
      if (https) await t.step('tls', async () => tlsDetail(await tlsHandshake(host, port, trust, tunnel)), { note: (d) => trustNote(d, trust) });
      tunnel.destroy();
    } else {
      await t.step('connect', async () => (await tcpConnect(host, port)).destroy(), { note: () => testNote('reached', { address: `${host}:${port}` }) });
      if (https) await t.step('tls', () => probeTls(host, port, trust), { note: (d) => trustNote(d, trust) });
    }
    const dispatcher = await httpDispatcher(h, host, trust);
    const { request } = await drivers.undici();
    try {
      await t.step(
        'request',
        async () => {
          const res = await request(url, {
            method: 'GET',
            dispatcher,
            headersTimeout: 10_000,
            bodyTimeout: 10_000,
            // the Content-Type too: a server that checks it answers the test as it will answer a POST
            headers: requestHeaders(h, 'pew-connection-test', 'plc'),
          });
          await res.body.dump();
          const line = `${res.statusCode} ${STATUS_CODES[res.statusCode] ?? ''}`.trim();
          const failure = statusFailure(res.statusCode, line);
          if (failure) throw failure;
          return line;
        },
        {
          // the headers' names, never their values (a key may be among them)
          note: (line) =>
            h.headers.length
              ? testNote('http_get_headers', { path: `${url.pathname}${url.search}`, headers: h.headers.map((x) => x.name).join(', ') }, line)
              : testNote('http_get', { path: `${url.pathname}${url.search}` }, line),
        },
      );
    } finally {
      // destroy, not close: a request the step gave up on must not hold the answer back
      await dispatcher.destroy().catch(() => undefined);
    }
  });
}
