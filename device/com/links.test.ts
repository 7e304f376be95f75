import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../hw/types.ts';
import { createSimHw } from '../../sim/hw.ts';
import { Capture } from '../diag/capture.ts';
import { type Pew, pew as pewDef } from '../model/sections/pew.ts';
import { createLogger } from '../system/log.ts';
import { PlcError } from './dialog.ts';
import { Links, linkConfigOf, stationOf } from './links.ts';

const defaults = (): Pew => v.getDefaults(pewDef.schema) as Pew;
const log = createLogger({ clock: systemClock, sink: null });
const versions = { app: '1', bsp: '1.3.2', hmi: '4.5.2' };
const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
};

let links: Links | undefined;
afterEach(async () => {
  await links?.close();
  links = undefined;
});

async function started(edit: (p: Pew) => void = () => {}, capture?: Capture) {
  const hw = createSimHw({ dataDir: await mkdtemp(join(tmpdir(), 'links-')), versions });
  links = new Links({ hw, log, clock: systemClock, reconnect: { firstMs: 20, maxMs: 100 }, ...(capture ? { capture } : {}) });
  const p = defaults();
  edit(p);
  await links.apply(p);
  return { links, pew: p };
}

describe('link settings from pew', () => {
  it("the station is address_plc on the service control interface, the IP's last octet + offset on COM4, else any", () => {
    const p = defaults();
    const com4 = p.interfaces.find((i) => i.id === 5)!;
    Object.assign(com4, { enabled: true, ip_port: '192.168.0.20:9094', addr_offset: -32768 });
    expect(stationOf(p, com4)).toBe(0);
    com4.addr_offset = 5;
    expect(stationOf(p, com4)).toBe(25);
    com4.addr_offset = -100; // below station 1: not used
    expect(stationOf(p, com4)).toBe(0);
    p.interface_plc = 5;
    p.address_plc = 7;
    expect(stationOf(p, com4)).toBe(7);
    const cfg = linkConfigOf(p, com4);
    expect(cfg).toMatchObject({ kind: 'tcp', ipPort: '192.168.0.20:9094', station: 7 });
  });

  it('autobaud is off on a transparent interface; serial settings carry over', () => {
    const p = defaults();
    const com1 = p.interfaces[0]!;
    Object.assign(com1, { autobaud: true, service: 1, baudrate: 19200, bits: 7, parity: 'even', stopbits: 2, flow: 'rtscts' });
    expect(linkConfigOf(p, com1)).toMatchObject({
      kind: 'serial',
      autobaud: false,
      serial: { baudRate: 19200, dataBits: 7, parity: 'even', stopBits: 2, rtscts: true },
    });
  });
});

describe('INTERNAL memory link (Modbus)', () => {
  it('writes and reads back DT words of the user area', async () => {
    const { links } = await started();
    const link = links.get(4)!;
    await link.writeWords('DT', 100, [1, 2, 0xffff]);
    expect(await link.readWords('DT', 99, 5)).toEqual([0, 1, 2, 0xffff, 0]);
    await link.writeWords('DT', 32767, [42]);
    expect(links.internal.words[32767]).toBe(42);
    await until(() => link.status().state === 'up');
  });

  it('refuses the reserved and read-only ranges with exception 02 and bits with 01, writing nothing', async () => {
    const { links } = await started();
    const link = links.get(4)!;
    await expect(link.writeWords('DT', 32767, [1, 2])).rejects.toMatchObject({ reason: 'plc_error', code: 2 });
    expect(links.internal.words[32767]).toBe(0);
    await expect(link.writeWords('DT', 33100, [1])).rejects.toMatchObject({ reason: 'plc_error', code: 2 });
    expect(await link.readWords('DT', 33088, 2)).toEqual([0, 0]); // system information: readable
    await expect(link.readBits('R', 0, 1)).rejects.toMatchObject({ reason: 'plc_error', code: 1 });
    await expect(link.readWords('FL', 0, 1)).rejects.toBeInstanceOf(PlcError);
  });

  it('a long read is split into FC3 requests of at most 125 registers', async () => {
    const { links } = await started();
    const link = links.get(4)!;
    links.internal.words.set(
      Array.from({ length: 300 }, (_, i) => i),
      1000,
    );
    const before = link.status().stats.requests;
    const words = await link.readWords('DT', 1000, 300);
    expect(words).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(link.status().stats.requests - before).toBe(3);
  });

  it('the PLC test over INTERNAL says it answers and that Modbus cannot tell the CPU type', async () => {
    const { links } = await started();
    const id = await links.get(4)!.identify();
    expect(id.cpu.name).toBe('unknown');
    expect(id.note).toMatch(/Modbus has no status read/);
    expect(id.raw).toMatch(/^00 01 00 00 00 05 01 03 02 00 00$/);
  });
});

describe('link states', () => {
  it('lists all five interfaces; a connector the unit lacks is absent', async () => {
    const { links } = await started((p) => {
      p.interfaces[0]!.enabled = true;
    });
    await until(() => links.status()[0]!.state === 'absent');
    const s = links.status();
    expect(s.map((x) => [x.name, x.state === 'absent' || x.state === 'disabled' ? x.state : 'live'])).toEqual([
      ['COM1', 'absent'],
      ['COM2', 'disabled'],
      ['COM3', 'disabled'],
      ['INTERNAL', 'live'],
      ['COM4', 'disabled'],
    ]);
    expect(s[0]!.reason).toEqual({ code: 'interface_absent', args: { connector: 'COM1' } });
    await expect(links.get(0)!.identify()).rejects.toMatchObject({ reason: 'link_down' });
  });

  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  it('COM4 to a closed TCP port is down and marked refused; it comes up by itself once the port opens', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const capture = new Capture(systemClock);
    capture.start({ sources: ['COM4'], level: 'events', minutes: 10, by: 'admin' });
    const { links } = await started((p) => {
      Object.assign(p.interfaces[4]!, { enabled: true, ip_port: `127.0.0.1:${port}`, protocol: 'MODBUS', timeout: 200 });
    }, capture);
    const link = links.get(5)!;
    await until(() => link.status().state === 'down');
    expect(link.refused).toBe(true);
    expect(link.status().reason).toEqual({ code: 'tcp_refused', args: { host: '127.0.0.1', port } });
    // the monitor's event carries the reason's values, so the console can name the host and port
    const down = capture.read(0, 100).records.find((r) => r.event === 'link_down');
    expect(down?.args).toEqual({ reason: 'tcp_refused', host: '127.0.0.1', port });
    // a Modbus/TCP peer answering exception 02 to everything: enough to count as answering
    const peers = new Set<Socket>();
    server = createServer((sock) => {
      peers.add(sock);
      sock.on('data', (b) => sock.write(Buffer.from([b[0]!, b[1]!, 0, 0, 0, 3, b[6]!, b[7]! | 0x80, 2])));
    });
    await new Promise<void>((r) => server!.listen(port, '127.0.0.1', r));
    await until(() => link.status().state === 'up', 5000);
    expect(link.refused).toBe(false);
    // the first connection is no reconnect; the peer ending it makes the next one one
    expect(link.status().stats.reconnects).toBe(0);
    for (const p of peers) p.destroy();
    await until(() => link.status().stats.reconnects === 1 && link.status().state === 'up', 5000);
    capture.stop();
    expect(link.status().stats.plcErrors).toBeGreaterThan(0);
    expect(link.status().stats.lastPlcError).toBe(2);
  });

  it('saving pew rebuilds only the changed links', async () => {
    const { links, pew } = await started();
    const internal = links.get(4);
    const next = structuredClone(pew);
    next.interfaces[0]!.enabled = true;
    await links.apply(next);
    expect(links.get(4)).toBe(internal);
    expect(links.get(0)).toBeDefined();
    next.interfaces[3]!.timeout = 2000;
    await links.apply(structuredClone(next));
    expect(links.get(4)).not.toBe(internal);
    next.interfaces[0]!.enabled = false;
    await links.apply(structuredClone(next));
    expect(links.get(0)).toBeUndefined();
  });
});
