// Debian's dante-server (danted) as the SOCKS5 proxy of the tests: on 127.0.0.1 at a free port,
// with its config and log in a temp folder, no authentication, CONNECT to anywhere from loopback.
// Every connection it makes is a line of its log ("tcp/connect [: client proxy -> ours server"),
// which `connections()` reads: the proof that a client went through it.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listening } from './entry-process.ts';
import { waitFor } from './mosquitto.ts';
import { freePort, LOOPBACK } from './ports.ts';

export interface Dante {
  port: number;
  /** the servers ("127.0.0.1.2525") the proxy connected to for its clients, in order */
  connections(): Promise<string[]>;
  stop(): Promise<void>;
}

/** danted on `port` (a free one when not given); resolves once it accepts connections. */
export async function startDante(port?: number): Promise<Dante> {
  const dir = await mkdtemp(join(tmpdir(), 'danted-'));
  port ??= await freePort();
  const log = join(dir, 'danted.log');
  const conf = join(dir, 'danted.conf');
  await writeFile(
    conf,
    [
      `logoutput: ${log}`,
      `internal: ${LOOPBACK} port = ${port}`,
      `external: ${LOOPBACK}`,
      'clientmethod: none',
      'socksmethod: none',
      ...(process.getuid?.() === 0 ? ['user.unprivileged: nobody'] : []),
      'client pass {',
      '  from: 127.0.0.0/8 to: 0.0.0.0/0',
      '  log: connect error',
      '}',
      'socks pass {',
      '  from: 127.0.0.0/8 to: 0.0.0.0/0',
      '  command: connect',
      '  log: connect error',
      '}',
      '',
    ].join('\n'),
  );
  // Debian installs it in /usr/sbin, which a user's PATH may lack
  const p = spawn(existsSync('/usr/sbin/danted') ? '/usr/sbin/danted' : 'danted', ['-f', conf, '-p', join(dir, 'danted.pid'), '-N', '1'], { stdio: 'ignore' });
  const exited = once(p, 'exit');
  try {
    await waitFor(
      async () => {
        if (p.exitCode !== null) throw new Error(`danted exited with ${p.exitCode}: ${await readFile(log, 'utf8').catch(() => '')}`);
        return listening(port, LOOPBACK);
      },
      10_000,
      `danted on ${port}`,
    );
  } catch (e) {
    p.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    port,
    connections: async () => {
      const text = await readFile(log, 'utf8');
      // "pass(1): tcp/connect [: 127.0.0.1.49474 127.0.0.1.18080 -> 127.0.0.1.51149 127.0.0.1.18081"
      return [...text.matchAll(/tcp\/connect \[: \S+ \S+ -> \S+ (\S+)/g)].map((m) => m[1]!);
    },
    stop: async () => {
      if (p.exitCode === null) {
        p.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
