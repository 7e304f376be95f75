// Runs socat and serialport for real: a missing socat fails this file, it is never skipped.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SerialPort } from 'serialport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PtyPlc, SOCAT_MISSING, startPtyPlc } from './pty.ts';
import { SerialPlcAttachment } from './serial-attachment.ts';
import { VirtualPlc } from './virtual-plc.ts';

type Line = { baudRate: number; parity?: 'none' | 'odd' | 'even'; stopBits?: 1 | 2 };

/** Opens the daemon's end like the daemon does, sends `text`, collects what comes back within `ms`. */
async function ask(hostPath: string, line: Line, text: string, ms: number): Promise<{ text: string; firstAt: number }> {
  const port = new SerialPort({ path: hostPath, dataBits: 8, parity: 'odd', stopBits: 1, ...line, autoOpen: false });
  await new Promise<void>((res, rej) => port.open((e) => (e ? rej(e) : res())));
  let got = '';
  let firstAt = -1;
  const t0 = performance.now();
  port.on('data', (b: Buffer) => {
    if (firstAt < 0) firstAt = performance.now() - t0;
    got += b.toString('latin1');
  });
  port.write(text);
  const deadline = t0 + ms;
  while (performance.now() < deadline && !got.endsWith('\r')) await new Promise((r) => setTimeout(r, 5));
  await new Promise<void>((res) => port.close(() => res()));
  return { text: got, firstAt };
}

describe('a virtual PLC behind a pseudo-terminal (socat + serialport)', () => {
  let dir: string;
  let pty: PtyPlc;
  const plc = new VirtualPlc({ model: 'FP-X', station: 1, scanMs: 2 });
  const att = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: { baud: 9600, bits: 8, parity: 'odd', stopbits: 1 } });

  beforeAll(async () => {
    expect(() => execFileSync('which', ['socat']), 'socat must be installed for this test (apt-get install socat)').not.toThrow();
    dir = await mkdtemp(path.join(tmpdir(), 'pty-plc-'));
    pty = await startPtyPlc(att, { dir, name: 'COM1' });
  });
  afterAll(async () => {
    await pty?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers at the matching settings, after the wire time', async () => {
    expect(pty.hostPath).toBe(path.join(dir, 'COM1'));
    const r = await ask(pty.hostPath, { baudRate: 9600 }, '%01#RT**\r', 2000);
    expect(r.text).toMatch(/^%01\$RT20[0-9A-F]{14}[0-9A-F]{2}\r$/);
    // 9 chars there, 25 back at 11 bits per char and 9600 bit/s: at least 35 ms
    expect(r.firstAt).toBeGreaterThanOrEqual(34);
  });

  it('a daemon at the wrong baud rate or parity gets no answer: the PLC hears garbage', async () => {
    const before = { ...att.counters };
    const requests = plc.requests;
    for (const line of [{ baudRate: 19200 }, { baudRate: 4800 }, { baudRate: 9600, parity: 'even' as const }, { baudRate: 9600, stopBits: 2 as const }]) {
      const r = await ask(pty.hostPath, line, '%01#RT**\r', 250);
      expect(r.text, JSON.stringify(line)).not.toContain('$RT');
    }
    expect(att.counters.toPlc).toBeGreaterThan(before.toPlc);
    expect(plc.requests).toBe(requests);
  });

  it('autobaud finds the PLC', async () => {
    att.framing = { ...att.framing, baud: 38400 };
    try {
      let found = 0;
      for (const baudRate of [19200, 115200, 9600, 57600, 38400]) {
        const r = await ask(pty.hostPath, { baudRate }, '%EE#RT**\r', 250);
        if (r.text.startsWith('%EE$RT')) {
          found = baudRate;
          break;
        }
      }
      expect(found).toBe(38400);
    } finally {
      att.framing = { ...att.framing, baud: 9600 };
    }
  });

  it('close() ends socat and removes the links', async () => {
    const other = await startPtyPlc(new SerialPlcAttachment(new VirtualPlc({ model: 'FP0R' }), { protocol: 'MODBUS', framing: att.framing }), {
      dir,
      name: 'COM2',
    });
    expect(existsSync(other.hostPath) && existsSync(other.plcPath)).toBe(true);
    const socats = () =>
      execFileSync('ps', ['-eo', 'args'])
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('socat') && l.includes(other.hostPath));
    expect(socats()).toHaveLength(1);
    await other.close();
    expect(existsSync(other.hostPath) || existsSync(other.plcPath)).toBe(false);
    expect(socats()).toEqual([]);
  });

  it('refuses to replace a file that is not a link, and says when socat is missing', async () => {
    await writeFile(path.join(dir, 'COM3'), 'x');
    await expect(startPtyPlc(att, { dir, name: 'COM3' })).rejects.toThrow(/is not a pseudo-terminal link/);
    const savedPath = process.env.PATH;
    process.env.PATH = path.join(dir, 'no-bin');
    try {
      await expect(startPtyPlc(att, { dir, name: 'COM4' })).rejects.toThrow(SOCAT_MISSING);
    } finally {
      process.env.PATH = savedPath;
    }
  });
});
