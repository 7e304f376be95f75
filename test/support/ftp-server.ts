// An FTP server written by others (ftp-srv, a dev dependency) for the tests, on 127.0.0.1 and a
// free port: one account whose root is a folder of the test's.
import { FtpSrv } from 'ftp-srv';
import { freePort, LOOPBACK } from './ports.ts';

export const FTP_USER = 'plc';
export const FTP_PASSWORD = 'Secret-1';

/** ftp-srv logs through bunyan by default; the tests want none of it */
const quiet = { child: () => quiet, trace() {}, debug() {}, info() {}, warn() {}, error() {}, fatal() {} };

export interface TestFtpServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Starts the server; the account FTP_USER / FTP_PASSWORD (or `opts.user` / `opts.password`) logs in
 * to `root`, any other is refused. With `opts.tls` it offers explicit FTPS (AUTH TLS).
 */
export async function startFtpServer(
  root: string,
  opts: { user?: string; password?: string; tls?: { key: string; cert: string } } = {},
): Promise<TestFtpServer> {
  const port = await freePort();
  const server = new FtpSrv({
    url: `ftp://${LOOPBACK}:${port}`,
    pasv_url: LOOPBACK,
    anonymous: false,
    log: quiet as never,
    ...(opts.tls ? { tls: opts.tls } : {}),
  });
  server.on('login', ({ username, password }, resolve, reject) => {
    if (username === (opts.user ?? FTP_USER) && password === (opts.password ?? FTP_PASSWORD)) resolve({ root });
    else reject(new Error('Login incorrect'));
  });
  await server.listen();
  return { port, close: () => server.close().catch(() => undefined) };
}
