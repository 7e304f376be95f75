// The simulator's PLCs, built from its configuration (config.ts): one VirtualPlc per connector, on
// an in-process serial wire (handed to the simulated hw as `virtualPorts`), behind a pseudo-terminal
// (`serialMap`, filled by start()), or on TCP (COM4). describe() gives the start-up banner lines.
import { ConnectionGuard, stderrFaultLog } from '../../device/net/connection-guard.ts';
import type { ByteChannel, SerialSettings } from '../../hw/types.ts';
import { formatFraming, type Timers } from '../wire.ts';
import {
  type EthernetPlcConfig,
  PLC_CONNECTORS,
  type PlcConfig,
  type PlcConnector,
  SERIAL_CONNECTORS,
  type SerialConnector,
  type SerialPlcConfig,
} from './config.ts';
import { type RunningProgram, runProgram } from './program.ts';
import { type PtyPlc, startPtyPlc } from './pty.ts';
import { SerialPlcAttachment } from './serial-attachment.ts';
import { DEFAULT_MEWTOCOL_PORT, DEFAULT_MODBUS_PORT, effectivePort, startTcpPlc, type TcpPlc } from './tcp.ts';
import { VirtualPlc } from './virtual-plc.ts';

export interface PlcRigOptions {
  /** folder for the pseudo-terminal links (`<dir>/COM1` …) */
  dir: string;
  timers?: Timers;
}

export interface PlcRig {
  plcs: Map<PlcConnector, VirtualPlc>;
  /** the serial connectors' wires, e.g. to change a PLC's line settings or read the byte counters */
  attachments: Map<SerialConnector, SerialPlcAttachment>;
  /** in-process serial connectors, for createSimHw({ virtualPorts }) */
  virtualPorts: Record<string, (settings: SerialSettings) => ByteChannel>;
  /** pty connectors → the path the daemon opens, for createSimHw({ serialMap }); filled by start() */
  serialMap: Record<string, string>;
  /** starts the pseudo-terminals and the TCP listeners */
  start(): Promise<void>;
  /** one line per PLC for the start-up banner */
  describe(): string[];
  /** connections (a serial line, a TCP client) of a connector's PLC that a contained fault ended */
  faults(connector: PlcConnector): number;
  unplug(connector: PlcConnector): void;
  plug(connector: PlcConnector): void;
  close(): Promise<void>;
}

/** 127.x hosts fall back to 127.0.0.1 (some systems have no other loopback address) */
const LOOPBACK = '127.0.0.1';
const fallbackFor = (host: string) => (host.startsWith('127.') && host !== LOOPBACK ? LOOPBACK : undefined);

const protocolText = (plc: VirtualPlc, protocol: string) => (protocol === 'MEWTOCOL' && plc.memory.profile.mewtocol7 ? 'MEWTOCOL + MEWTOCOL7' : protocol);

function tcpText(c: EthernetPlcConfig, plc: VirtualPlc, tcp: TcpPlc | undefined): string {
  const port = (wanted: number, used: number | undefined, name: string) => {
    const p = used ?? effectivePort(wanted);
    const why = p === effectivePort(wanted) ? ` (${wanted} needs root)` : ` (${effectivePort(wanted)} in use)`;
    return `${p} ${name}${p !== wanted && wanted !== 0 ? why : ''}`;
  };
  const host = tcp?.host ?? c.host;
  const moved = tcp && tcp.host !== c.host ? ` (${c.host} not available)` : '';
  return `${host}:${port(c.mewtocolPort, tcp?.ports.mewtocol, protocolText(plc, 'MEWTOCOL'))}, :${port(c.modbusPort, tcp?.ports.modbus, 'Modbus')}${moved}`;
}

export function createPlcRig(config: PlcConfig, opts: PlcRigOptions): PlcRig {
  const plcs = new Map<PlcConnector, VirtualPlc>();
  const attachments = new Map<SerialConnector, SerialPlcAttachment>();
  const serialConfigs = new Map<SerialConnector, SerialPlcConfig>();
  const virtualPorts: PlcRig['virtualPorts'] = {};
  const serialMap: PlcRig['serialMap'] = {};
  const ptys = new Map<SerialConnector, PtyPlc>();
  let tcp: TcpPlc | undefined;
  let tcpPlugged = true;
  let started = false;
  const guards = new Map(PLC_CONNECTORS.map((c) => [c, new ConnectionGuard({ listener: `virtual-plc:${c}`, log: stderrFaultLog })]));

  for (const c of SERIAL_CONNECTORS) {
    const cfg = config[c];
    if (!cfg) continue;
    const plc = new VirtualPlc({ model: cfg.cpu, station: cfg.station, scanMs: cfg.scanMs });
    const att = new SerialPlcAttachment(plc, {
      protocol: cfg.protocol,
      framing: { baud: cfg.baud, bits: cfg.bits, parity: cfg.parity, stopbits: cfg.stopbits },
      timers: opts.timers,
      guard: guards.get(c)!,
    });
    plcs.set(c, plc);
    attachments.set(c, att);
    serialConfigs.set(c, cfg);
    if (!cfg.pty) virtualPorts[c] = (settings) => att.open(settings);
  }
  const eth = config.COM4;
  if (eth) plcs.set('COM4', new VirtualPlc({ model: eth.cpu, station: eth.station, scanMs: eth.scanMs }));

  const plcOn = (c: PlcConnector) => {
    const plc = plcs.get(c);
    if (!plc) throw new Error(`no virtual PLC on ${c} (connectors with one: ${[...plcs.keys()].join(', ') || 'none'})`);
    return plc;
  };

  const programs: RunningProgram[] = [];

  async function close(): Promise<void> {
    for (const p of programs.splice(0)) p.stop();
    const closing = [...ptys.values()].map((p) => p.close());
    if (tcp) closing.push(tcp.close());
    ptys.clear();
    tcp = undefined;
    for (const c of Object.keys(serialMap)) delete serialMap[c];
    await Promise.all(closing);
  }

  return {
    plcs,
    attachments,
    virtualPorts,
    serialMap,
    async start() {
      if (started) throw new Error('the PLC rig is already started');
      started = true;
      try {
        for (const [c, cfg] of serialConfigs) {
          if (!cfg.pty) continue;
          const p = await startPtyPlc(attachments.get(c)!, { dir: opts.dir, name: c });
          ptys.set(c, p);
          serialMap[c] = p.hostPath;
        }
        // the PLC programs of the --plcs file (program.ts)
        for (const c of PLC_CONNECTORS) {
          const program = c === 'COM4' ? eth?.program : serialConfigs.get(c)?.program;
          const target = plcs.get(c);
          if (program && target) programs.push(runProgram(target.memory, program));
        }
        const plc = plcs.get('COM4');
        if (eth && plc) {
          tcp = await startTcpPlc(plc, {
            host: eth.host,
            fallbackHost: fallbackFor(eth.host),
            mewtocolPort: eth.mewtocolPort,
            modbusPort: eth.modbusPort,
            timers: opts.timers,
            guard: guards.get('COM4')!,
            // the built-in ports give way when another simulator holds them; ports chosen in a PLC file do not
            freeWhenInUse: eth.mewtocolPort === DEFAULT_MEWTOCOL_PORT && eth.modbusPort === DEFAULT_MODBUS_PORT,
          });
          if (!tcpPlugged) tcp.unplug();
        }
      } catch (e) {
        await close();
        throw e;
      }
    },
    describe() {
      return PLC_CONNECTORS.flatMap((c) => {
        const plc = plcs.get(c);
        if (!plc) return [];
        const head = `${c}  ${plc.model} station ${plc.station}  `;
        if (c === 'COM4') return [head + tcpText(eth!, plc, tcp) + (tcpPlugged ? '' : '  UNPLUGGED')];
        const cfg = serialConfigs.get(c)!;
        const att = attachments.get(c)!;
        const where = !cfg.pty ? 'in-process' : `pty ${ptys.get(c)?.hostPath ?? '(not started)'}`;
        return [`${head}${protocolText(plc, cfg.protocol)} ${formatFraming(att.framing)}  ${where}${att.plugged ? '' : '  UNPLUGGED'}`];
      });
    },
    faults: (c) => guards.get(c)?.faults ?? 0,
    unplug(c) {
      plcOn(c);
      if (c === 'COM4') {
        tcpPlugged = false;
        tcp?.unplug();
      } else attachments.get(c)!.unplug();
    },
    plug(c) {
      plcOn(c);
      if (c === 'COM4') {
        tcpPlugged = true;
        tcp?.plug();
      } else attachments.get(c)!.plug();
    },
    close,
  };
}
