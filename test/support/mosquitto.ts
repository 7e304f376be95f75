// Debian's mosquitto for the MQTT tests and the bench: a broker on a free port with a temp config
// (anonymous, no persistence), mosquitto_sub collecting what arrives (topic, QoS, retain, payload
// as hex), mosquitto_pub of one message. No test framework here, so the bench uses it too.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listening } from './entry-process.ts';
import { LOOPBACK } from './ports.ts';

/** Waits until `cond` holds, checking every `stepMs`. */
export async function waitFor(cond: () => Promise<boolean> | boolean, ms: number, what: string, stepMs = 20): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export interface Broker {
  port: number;
  stop(): Promise<void>;
}

/** mosquitto on `port` (127.0.0.1), anonymous, nothing kept on disk; resolves once it accepts connections. */
export async function startBroker(port: number): Promise<Broker> {
  const dir = await mkdtemp(join(tmpdir(), 'mosquitto-'));
  const conf = join(dir, 'mosquitto.conf');
  await writeFile(conf, `listener ${port} ${LOOPBACK}\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n`);
  const p = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  await waitFor(() => listening(port, LOOPBACK), 10_000, `mosquitto on ${port}`);
  return {
    port,
    stop: async () => {
      if (p.exitCode === null) {
        p.kill('SIGTERM');
        await once(p, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface Arrival {
  topic: string;
  qos: number;
  retain: boolean;
  payload: Buffer;
}

export interface Subscriber {
  got: Arrival[];
  stop(): Promise<void>;
}

function parse(line: string): Arrival {
  const [topic, qos, retain, hex] = line.split('\t');
  return { topic: topic!, qos: Number(qos), retain: retain === '1', payload: Buffer.from(hex ?? '', 'hex') };
}

/** mosquitto_sub on `filter` at QoS 2; resolves once a marker published to `ready` came back (subscribed). */
export async function subscribe(port: number, filter: string, opts: { count?: number } = {}): Promise<Subscriber> {
  const args = [
    '-h',
    LOOPBACK,
    '-p',
    String(port),
    '-q',
    '2',
    '-t',
    filter,
    '-t',
    'rig/ready',
    '-F',
    '%t\t%q\t%r\t%x',
    ...(opts.count ? ['-C', String(opts.count)] : []),
  ];
  const p: ChildProcess = spawn('mosquitto_sub', args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const got: Arrival[] = [];
  let ready = false;
  let rest = '';
  p.stdout!.on('data', (b: Buffer) => {
    const lines = (rest + b.toString()).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const a = parse(l);
      if (a.topic === 'rig/ready') ready = true;
      else got.push(a);
    }
  });
  if (!opts.count) {
    await waitFor(
      async () => {
        if (!ready) await publish(port, 'rig/ready', 'x');
        return ready;
      },
      10_000,
      'mosquitto_sub subscribed',
    );
  }
  return {
    got,
    stop: async () => {
      if (p.exitCode === null) {
        p.kill('SIGTERM');
        await once(p, 'exit');
      }
    },
  };
}

/** mosquitto_pub of one message. */
export async function publish(port: number, topic: string, message: string, opts: { qos?: number; retain?: boolean } = {}): Promise<void> {
  const p = spawn(
    'mosquitto_pub',
    ['-h', LOOPBACK, '-p', String(port), '-t', topic, '-m', message, '-q', String(opts.qos ?? 1), ...(opts.retain ? ['-r'] : [])],
    // a client that hangs (no CONNACK or PUBACK) fails the wait it is in, with its reason, instead of the whole test's limit
    { stdio: 'ignore', timeout: 15_000 },
  );
  const [code, signal] = (await once(p, 'exit')) as [number | null, NodeJS.Signals | null];
  if (signal) throw new Error(`mosquitto_pub to ${topic} did not end within 15 s (${signal})`);
  if (code !== 0) throw new Error(`mosquitto_pub exited with ${code}`);
}
