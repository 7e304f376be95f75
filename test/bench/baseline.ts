// The baselines, each run with `node -e`: a bare node:http server answering every path with fixed
// JSON bytes (BENCH_BODIES maps a path to its body; anything else gets `{}`), a bare TCP proxy, and
// a bare PLC for both the proxy and a redirect thread to talk to.
export const BARE_SERVER = `
const http = require('node:http');
const bodies = JSON.parse(process.env.BENCH_BODIES || '{}');
http.createServer((req, res) => {
  const body = bodies[req.url] ?? '{}';
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;

export const bareArgs = (): string[] => ['-e', BARE_SERVER];
export const bareEnv = (port: number, bodies: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  BENCH_PORT: String(port),
  BENCH_BODIES: JSON.stringify(bodies),
});

/** A bare TCP proxy: every connection to BENCH_PORT is piped to BENCH_TO on the same host, byte for byte. */
export const BARE_PROXY = `
const net = require('node:net');
const host = '127.0.0.1';
net.createServer((c) => {
  const up = net.connect(Number(process.env.BENCH_TO), host);
  c.setNoDelay(true);
  up.setNoDelay(true);
  c.on('data', (b) => up.write(b));
  up.on('data', (b) => c.write(b));
  c.on('close', () => up.destroy());
  up.on('close', () => c.destroy());
  c.on('error', () => {});
  up.on('error', () => {});
}).listen(Number(process.env.BENCH_PORT), host);
`;

/** A bare PLC: every chunk received on BENCH_PORT is answered with the bytes of BENCH_REPLY (latin1) after a 1 ms timer. */
export const BARE_PLC = `
const net = require('node:net');
const reply = Buffer.from(process.env.BENCH_REPLY, 'latin1');
net.createServer((s) => {
  s.setNoDelay(true);
  s.on('data', () => setTimeout(() => s.write(reply), 1));
  s.on('error', () => {});
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1');
`;
