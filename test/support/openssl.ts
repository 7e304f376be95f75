// Test support for everything that speaks TLS (the TLS bridge, the service tests, the database
// servers): a certificate authority and certificates made by the openssl command at test time, real
// `openssl s_server` / `s_client` processes whose stdin and stdout are the two ends of the data,
// and plain TCP and TLS echo servers in this process.
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { promisify } from 'node:util';
import { listening } from './entry-process.ts';
import { LOOPBACK } from './ports.ts';

const run = promisify(execFile);

export interface CertFiles {
  /** PEM files */
  cert: string;
  key: string;
}

/** A CA (self-signed, P-256) in `dir`, named `name`. */
export async function makeCa(dir: string, name: string): Promise<CertFiles> {
  const files = { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) };
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    files.key,
    '-out',
    files.cert,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return files;
}

/** A certificate signed by `ca` for 127.0.0.1 and localhost, usable by servers and clients. */
export async function makeLeaf(dir: string, name: string, ca: CertFiles): Promise<CertFiles> {
  const files = { cert: join(dir, `${name}.pem`), key: join(dir, `${name}.key`) };
  const csr = join(dir, `${name}.csr`);
  const ext = join(dir, `${name}.ext`);
  await writeFile(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\nbasicConstraints=CA:FALSE\n');
  await run('openssl', ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', files.key, '-out', csr, '-subj', `/CN=${name}`]);
  await run('openssl', ['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', files.cert, '-days', '2', '-extfile', ext]);
  return files;
}

/**
 * A CA, a certificate for 127.0.0.1/localhost (CN=localhost) it signed with its key, and another
 * CA that did not sign it, as PEM texts (the files made for them are removed).
 */
export async function makeCertificates(): Promise<{ ca: string; cert: string; key: string; otherCa: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'certs-'));
  try {
    const ca = await makeCa(dir, 'Test CA');
    const other = await makeCa(dir, 'Other CA');
    const server = await makeLeaf(dir, 'localhost', ca);
    const read = (f: string) => readFile(f, 'utf8');
    return { ca: await read(ca.cert), cert: await read(server.cert), key: await read(server.key), otherCa: await read(other.cert) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Waits until something accepts TCP connections on `port` (the probe connection is closed at once). */
export async function waitListening(port: number, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await listening(port, LOOPBACK)) return;
    if (Date.now() > end) throw new Error(`nothing listens on ${port}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** An openssl process whose stdout is collected; `send` writes to its stdin. */
export class OpensslProcess {
  private chunks: Buffer[] = [];
  exited: number | null | undefined = undefined;
  private readonly exit: Promise<number | null>;
  stderr = '';

  constructor(readonly proc: ChildProcessWithoutNullStreams) {
    proc.stdout.on('data', (b: Buffer) => this.chunks.push(b));
    proc.stderr.on('data', (b: Buffer) => {
      this.stderr += b.toString();
    });
    proc.stdin.on('error', () => {});
    this.exit = new Promise((resolve) =>
      proc.once('exit', (code) => {
        this.exited = code;
        resolve(code);
      }),
    );
  }

  /** stdout so far */
  output(): Buffer {
    return Buffer.concat(this.chunks);
  }

  clear(): void {
    this.chunks = [];
  }

  send(b: Uint8Array): void {
    this.proc.stdin.write(b);
  }

  /** Waits until stdout holds `n` bytes (or throws after `timeoutMs`). */
  async receive(n: number, timeoutMs = 20_000): Promise<Buffer> {
    const end = Date.now() + timeoutMs;
    while (this.output().length < n) {
      if (Date.now() > end) throw new Error(`got ${this.output().length} of ${n} bytes; stderr: ${this.stderr.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.output();
  }

  /** The exit code, when the process ends within `timeoutMs`; else undefined. */
  async exitWithin(timeoutMs: number): Promise<number | null | undefined> {
    return Promise.race([this.exit, new Promise<undefined>((r) => setTimeout(() => r(undefined), timeoutMs))]);
  }

  async stop(): Promise<void> {
    if (this.exited === undefined) {
      this.proc.kill();
      await this.exit;
    }
  }
}

/** `openssl s_server` on `port` with `server`'s certificate; `extra` e.g. ['-tls1_2']. */
export async function sServer(port: number, server: CertFiles, extra: string[] = []): Promise<OpensslProcess> {
  const p = new OpensslProcess(spawn('openssl', ['s_server', '-accept', `${LOOPBACK}:${port}`, '-cert', server.cert, '-key', server.key, '-quiet', ...extra]));
  await waitListening(port);
  return p;
}

/** `openssl s_client` to `port`, trusting `ca`, with a client certificate when given. */
export function sClient(port: number, ca: string, client?: CertFiles): OpensslProcess {
  const cert = client ? ['-cert', client.cert, '-key', client.key] : [];
  return new OpensslProcess(
    spawn('openssl', ['s_client', '-connect', `${LOOPBACK}:${port}`, '-CAfile', ca, '-verify_return_error', '-quiet', '-nocommands', ...cert]),
  );
}

/** A plain TCP echo server on a free port: every byte comes back; `received` is what it got. */
export async function tcpEcho(): Promise<{ port: number; connections: () => number; received: () => Buffer; close(): Promise<void> }> {
  let connections = 0;
  const got: Buffer[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('data', (b) => {
      got.push(b);
      s.write(b);
    });
    s.on('error', () => {});
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, LOOPBACK, () => r()));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    received: () => Buffer.concat(got),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** A TLS echo server on a free port with `server`'s certificate. */
export async function tlsEcho(server: { cert: string; key: string }): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const s = createTlsServer({ cert: server.cert, key: server.key }, (c) => {
    sockets.add(c);
    c.setNoDelay(true);
    c.pipe(c);
    c.on('error', () => {});
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((r) => s.listen(0, LOOPBACK, () => r()));
  return {
    port: (s.address() as { port: number }).port,
    close: () =>
      new Promise<void>((r) => {
        for (const c of sockets) c.destroy();
        s.close(() => r());
      }),
  };
}
