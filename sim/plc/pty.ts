// A virtual PLC behind a pseudo-terminal pair, for a daemon that opens a real device path with
// `serialport` (`--com1 <hostPath>`). socat links `<dir>/<name>` (the daemon's end) to
// `<dir>/<name>.plc`, which is opened here with hw/serial-channel.ts. A pty itself has no speed, so
// the line is emulated: the settings the daemon set are read with stty (stty.ts) when it sends,
// and both directions cross a WireDirection through the attachment (serial-attachment.ts): wire
// timing, and garbage when the daemon's settings do not match the PLC's. Autobaud over a pty
// therefore has something to find.
// The daemon can change its settings only between writes, and does so between exchanges (after an
// answer or a timeout): the first chunk after a pause of BURST_GAP_MS is always read with a new
// stty run; the chunks of one burst share a reading up to `sttyMaxAgeMs` old.
import { type ChildProcess, spawn } from 'node:child_process';
import { lstat, mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { openSerialChannel } from '../../hw/serial-channel.ts';
import type { ByteChannel } from '../../hw/types.ts';
import type { SerialFraming } from '../wire.ts';
import { hostFramingOf, SttyReader } from './stty.ts';

/** What a pty needs of a PLC on a wire: SerialPlcAttachment. */
export interface PtyAttachable {
  readonly framing: SerialFraming;
  connect(hostFraming: () => SerialFraming): ByteChannel;
}

export interface PtyPlcOptions {
  dir: string;
  name: string;
  /** how old a reading of the daemon's line settings may be (≤ 250 ms; default 100) */
  sttyMaxAgeMs?: number;
  /** how long socat may take to create the links (default 5000 ms) */
  startTimeoutMs?: number;
}

export interface PtyPlc {
  /** the path the daemon opens */
  hostPath: string;
  plcPath: string;
  close(): Promise<void>;
}

export const SOCAT_MISSING = 'socat is not installed (apt-get install socat)';

/** a pause longer than this starts a new exchange (chunks of one write arrive well within it) */
const BURST_GAP_MS = 20;

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Removes a symbolic link left by a socat that did not end cleanly; anything else at the path is an error. */
async function removeStaleLink(p: string): Promise<void> {
  const st = await lstat(p).catch(() => undefined);
  if (!st) return;
  if (!st.isSymbolicLink()) throw new Error(`${p} exists and is not a pseudo-terminal link`);
  await unlink(p);
}

function startSocat(hostPath: string, plcPath: string): { proc: ChildProcess; failed: Promise<never>; stderr: () => string } {
  const proc = spawn('socat', ['-d', `pty,raw,echo=0,link=${hostPath}`, `pty,raw,echo=0,link=${plcPath}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr?.on('data', (b: Buffer) => {
    err = (err + b.toString()).slice(-2000);
  });
  const failed = new Promise<never>((_, reject) => {
    proc.once('error', (e: NodeJS.ErrnoException) => reject(new Error(e.code === 'ENOENT' ? SOCAT_MISSING : `socat: ${e.message}`)));
    proc.once('exit', (code, signal) => reject(new Error(`socat ended (${signal ?? `exit code ${code}`}) before creating ${hostPath}: ${err.trim()}`)));
  });
  failed.catch(() => {}); // observed by the caller while starting; later exits are handled by close()
  return { proc, failed, stderr: () => err };
}

async function waitForLinks(paths: string[], failed: Promise<never>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  const ready = (async () => {
    while (!(await Promise.all(paths.map(exists))).every(Boolean)) {
      if (performance.now() > deadline) throw new Error(`socat did not create ${paths.join(' and ')} within ${timeoutMs} ms`);
      await sleep(10);
    }
  })();
  await Promise.race([ready, failed]);
}

function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => proc.kill('SIGKILL'), 2000);
    proc.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    proc.kill('SIGTERM');
  });
}

export async function startPtyPlc(attachment: PtyAttachable, opts: PtyPlcOptions): Promise<PtyPlc> {
  await mkdir(opts.dir, { recursive: true });
  const hostPath = path.join(opts.dir, opts.name);
  const plcPath = `${hostPath}.plc`;
  await removeStaleLink(hostPath);
  await removeStaleLink(plcPath);
  const socat = startSocat(hostPath, plcPath);
  const killOnExit = () => socat.proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  let port: ByteChannel | undefined;
  try {
    await waitForLinks([hostPath, plcPath], socat.failed, opts.startTimeoutMs ?? 5000);
    const f = attachment.framing;
    port = await openSerialChannel(plcPath, { baudRate: f.baud, dataBits: f.bits, parity: f.parity, stopBits: f.stopbits, rtscts: false });
  } catch (e) {
    process.off('exit', killOnExit);
    await stopProcess(socat.proc);
    throw e;
  }
  const plcPort = port;
  const stty = new SttyReader(hostPath, opts.sttyMaxAgeMs ?? 100);
  const hostFraming = () => {
    const line = stty.current();
    return line ? hostFramingOf(line, attachment.framing) : attachment.framing;
  };
  const wire = attachment.connect(hostFraming);
  // the daemon's settings are read when it sends (it sets them before writing), then the bytes go on the wire in order
  let queue = Promise.resolve();
  let lastChunkAt = -Infinity;
  plcPort.onData((bytes) => {
    const copy = bytes.slice();
    const now = performance.now();
    const newExchange = now - lastChunkAt > BURST_GAP_MS;
    lastChunkAt = now;
    queue = queue.then(() => stty.fresh(newExchange)).then(() => wire.write(copy));
  });
  wire.onData((bytes) => plcPort.write(bytes));

  let closing: Promise<void> | undefined;
  return {
    hostPath,
    plcPath,
    close: () =>
      (closing ??= (async () => {
        process.off('exit', killOnExit);
        await wire.close();
        await plcPort.close();
        await stopProcess(socat.proc);
        await removeStaleLink(hostPath);
        await removeStaleLink(plcPath);
      })()),
  };
}
