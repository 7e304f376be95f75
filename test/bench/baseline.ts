// The baseline: a bare node:http server run with `node -e`, answering every path with fixed JSON
// bytes (BENCH_BODIES maps a path to its body; anything else gets `{}`).
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
