// The PLC links of the unit: one per enabled interface of the pew section (spec §3), rebuilt for
// exactly the interfaces whose settings changed when pew is saved, without restarting the daemon.
//
//   COM1 (id 0), COM2 (id 3), COM3 (id 1)  serial connectors, opened through the hw seam
//   INTERNAL (id 4)                         the unit's own memory, by Modbus (internal-memory.ts)
//   COM4 (id 5)                             TCP to `ip_port`
//
// Station of the link's own requests: `address_plc` on the service control interface
// (`interface_plc`) when it is not 0; on COM4 otherwise the last octet of the PLC's IP plus
// `addr_offset` (mewtocol.md §9: over Ethernet the station equals the last octet), unless the
// offset is disabled (-32768); else any station (MEWTOCOL `EE`) or Modbus unit 1.
import type { Clock, Hw } from '../../hw/types.ts';
import type { Capture } from '../diag/capture.ts';
import type { CaptureProtocol } from '../model/monitor.ts';
import { ADDR_OFFSET_DISABLED, ETHERNET_ID, INTERFACE_NAMES, INTERNAL_ID, type InterfaceId, TRANSPARENT } from '../model/plc.ts';
import { reason } from '../model/reasons.ts';
import type { ComInterface, Pew } from '../model/sections/pew.ts';
import type { Logger } from '../system/log.ts';
import { ControlInterfaceOff } from './dialog.ts';
import type { PlcDriver } from './driver.ts';
import { InternalMemory, internalChannel } from './internal-memory.ts';
import { zeroLineStats } from './line-guard.ts';
import { Link } from './link.ts';
import { type LinkConfig, type LinkStatus, OpenError } from './link-types.ts';
import { Mewtocol7Driver, MewtocolDriver } from './mewtocol-driver.ts';
import { ModbusDriver } from './modbus-driver.ts';
import { zeroQueueStats } from './queue.ts';
import { openTcpChannel, parseIpPort, TcpOpenError } from './tcp-channel.ts';

export const CONNECTOR_OF: Readonly<Record<number, string>> = { 0: 'COM1', 3: 'COM2', 1: 'COM3' };

export type InterfaceStatus = Omit<LinkStatus, 'state'> & { enabled: boolean; state: LinkStatus['state'] | 'disabled' };

export function stationOf(pew: Pew, it: ComInterface): number {
  if (pew.interface_plc === it.id && pew.address_plc > 0) return pew.address_plc;
  if (it.id === ETHERNET_ID && it.addr_offset !== ADDR_OFFSET_DISABLED && it.ip_port) {
    const lastOctet = Number(parseIpPort(it.ip_port).host.split('.')[3]);
    const station = lastOctet + it.addr_offset;
    const max = it.protocol === 'MODBUS' ? 247 : 99;
    if (station >= 1 && station <= max) return station;
  }
  return 0;
}

export function linkConfigOf(pew: Pew, it: ComInterface): LinkConfig {
  return {
    id: it.id,
    name: it.name,
    kind: it.id === INTERNAL_ID ? 'internal' : it.id === ETHERNET_ID ? 'tcp' : 'serial',
    protocol: it.protocol,
    serial: { baudRate: it.baudrate, dataBits: it.bits, parity: it.parity, stopBits: it.stopbits, rtscts: it.flow === 'rtscts' },
    autobaud: it.autobaud && it.service !== TRANSPARENT, // autobaud has no effect on a transparent interface
    timeoutMs: it.timeout,
    waitMs: it.wait,
    ipPort: it.ip_port,
    station: stationOf(pew, it),
  };
}

export function driverFor(cfg: LinkConfig): PlcDriver {
  const station = cfg.station > 0 ? cfg.station : 'EE';
  if (cfg.protocol === 'MODBUS') return new ModbusDriver(cfg.station > 0 ? cfg.station : 1, cfg.kind === 'serial' ? 'rtu' : 'tcp');
  return cfg.protocol === 'MEWTOCOL7' ? new Mewtocol7Driver(station) : new MewtocolDriver(station);
}

export interface LinksDeps {
  hw: Hw;
  log: Logger;
  clock: Clock;
  retries?: number;
  reconnect?: { firstMs: number; maxMs: number };
  /** the monitor's capture: each link feeds it through its tap */
  capture?: Capture;
}

/** The monitor's name of a link: its connector (COM1 … INTERNAL), whatever name the interface was given. */
export const captureSourceOf = (id: number): string => INTERFACE_NAMES[id as InterfaceId] ?? `interface ${id}`;

/** How the monitor cuts and decodes a link's bytes. */
export const captureProtocolOf = (cfg: LinkConfig): CaptureProtocol =>
  cfg.protocol === 'MODBUS' ? (cfg.kind === 'serial' ? 'modbus_rtu' : 'modbus_tcp') : cfg.protocol === 'MEWTOCOL7' ? 'mewtocol7' : 'mewtocol';

const sameConfig = (a: LinkConfig, b: LinkConfig) => JSON.stringify(a) === JSON.stringify(b);

export class Links {
  /** the INTERNAL interface's memory: volatile, kept while the daemon runs (link rebuilds included) */
  readonly internal = new InternalMemory();
  private readonly links = new Map<number, Link>();
  private pew: Pew | undefined;
  private closed = false;

  constructor(private readonly deps: LinksDeps) {}

  get(id: number): Link | undefined {
    return this.links.get(id);
  }

  /** The link of the service control interface `id` (pew.interface_plc); a PlcError link_down when it is not enabled. */
  control(id: number): Link {
    const link = this.links.get(id);
    if (!link) throw new ControlInterfaceOff();
    return link;
  }

  /** Brings the links in line with a pew section: new, changed and disabled interfaces only. */
  async apply(pew: Pew): Promise<void> {
    this.pew = pew;
    const wanted = new Map<number, LinkConfig>(pew.interfaces.filter((it) => it.enabled).map((it) => [it.id, linkConfigOf(pew, it)]));
    for (const [id, link] of [...this.links]) {
      const cfg = wanted.get(id);
      if (cfg && sameConfig(cfg, link.cfg)) continue;
      this.links.delete(id);
      await link.close();
    }
    if (this.closed) return;
    for (const [id, cfg] of wanted) {
      if (this.links.has(id)) continue;
      const link = this.create(cfg);
      this.links.set(id, link);
      link.start();
    }
  }

  /** Restarts every link (spec §3 restart by PLC / by time): channels reopen, autobaud searches again. */
  async restart(reason: string): Promise<void> {
    this.deps.log.warn('restarting the PLC links', { reason });
    const all = [...this.links.values()];
    this.links.clear();
    await Promise.all(all.map((l) => l.close()));
    if (this.pew) await this.apply(this.pew);
  }

  /** Every interface of the section in its order, disabled ones included. */
  status(): InterfaceStatus[] {
    return (this.pew?.interfaces ?? []).map((it) => {
      const link = this.links.get(it.id);
      if (link) return { ...link.status(), enabled: true };
      const cfg = linkConfigOf(this.pew!, it);
      return {
        id: it.id,
        name: it.name,
        protocol: it.protocol,
        transport: cfg.kind,
        enabled: false,
        state: 'disabled',
        stats: { ...zeroQueueStats(), ...zeroLineStats(), bytesOut: 0, bytesIn: 0, reconnects: 0, busyShare: 0 },
      };
    });
  }

  /** Starts the counters of the running links again from 0 (all, or the one with `id`); the names of those reset. */
  resetCounters(id?: number): string[] {
    const reset: string[] = [];
    for (const it of this.pew?.interfaces ?? []) {
      const link = this.links.get(it.id);
      if (!link || (id !== undefined && it.id !== id)) continue;
      link.resetCounters();
      reset.push(it.name);
    }
    return reset;
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.links.values()];
    this.links.clear();
    await Promise.all(all.map((l) => l.close()));
  }

  private create(cfg: LinkConfig): Link {
    return new Link(cfg, {
      driver: driverFor(cfg),
      driverAt: (station) => driverFor({ ...cfg, station }),
      clock: this.deps.clock,
      log: this.deps.log,
      ...(this.deps.retries !== undefined ? { retries: this.deps.retries } : {}),
      ...(this.deps.reconnect ? { reconnect: this.deps.reconnect } : {}),
      open: (baudRate) => this.open(cfg, baudRate),
      ...(this.deps.capture ? { tap: this.deps.capture.tap(captureSourceOf(cfg.id), captureProtocolOf(cfg), 'in') } : {}),
    });
  }

  private async open(cfg: LinkConfig, baudRate: number) {
    if (cfg.kind === 'internal') return internalChannel(this.internal);
    if (cfg.kind === 'tcp') {
      const { host, port } = parseIpPort(cfg.ipPort);
      try {
        return await openTcpChannel(host, port, cfg.timeoutMs);
      } catch (e) {
        const tcp = e instanceof TcpOpenError ? e : undefined;
        throw new OpenError(false, (e as Error).message, tcp?.reason ?? reason('open_failed', undefined, (e as Error).message), tcp?.refused);
      }
    }
    const connector = CONNECTOR_OF[cfg.id]!;
    const present = (await this.deps.hw.serialPorts()).find((p) => p.connector === connector)?.present ?? false;
    if (!present) throw new OpenError(true, `${connector} is not present on this unit`, reason('interface_absent', { connector }));
    try {
      return await this.deps.hw.openSerial(connector, { ...cfg.serial, baudRate });
    } catch (e) {
      throw new OpenError(false, (e as Error).message, reason('open_failed', undefined, (e as Error).message));
    }
  }
}
