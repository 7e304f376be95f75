// The simulator's PLC configuration: which virtual PLC sits on which connector of the unit. A small
// JSON file (sim/plcs.example.json, docs/simulator.md); every field is optional and `{}` gives the
// defaults below, `null` leaves a connector without a PLC.
//   COM1, COM2, COM3  serial: cpu, station, protocol, the PLC's line settings, scan time, and
//                     `pty` (a pseudo-terminal for a daemon that opens a device path) or in-process
//   COM4              Ethernet: cpu, station, host and the MEWTOCOL and Modbus/TCP ports
// The serial defaults are the unit's own COM defaults (9600 8O1, device/model/sections/pew.ts), so
// a fresh unit talks to a fresh simulator; each connector has another CPU model.
import { readFile } from 'node:fs/promises';
import * as v from 'valibot';
import { BAUD_RATES, PARITIES } from '../../device/model/plc.ts';
import { CPU_MODELS, type CpuModel } from './profiles.ts';
import { type PlcProgram, programSchema } from './program.ts';
import { DEFAULT_MEWTOCOL_PORT, DEFAULT_MODBUS_PORT } from './tcp.ts';
import { DEFAULT_SCAN_MS, MEWTOCOL_STATION_MAX, STATION_RANGE } from './virtual-plc.ts';

export const SERIAL_CONNECTORS = ['COM1', 'COM2', 'COM3'] as const;
export type SerialConnector = (typeof SERIAL_CONNECTORS)[number];
export const PLC_CONNECTORS = [...SERIAL_CONNECTORS, 'COM4'] as const;
export type PlcConnector = (typeof PLC_CONNECTORS)[number];

export interface SerialPlcConfig {
  cpu: CpuModel;
  station: number;
  protocol: 'MEWTOCOL' | 'MODBUS';
  baud: (typeof BAUD_RATES)[number];
  bits: 7 | 8;
  parity: (typeof PARITIES)[number];
  stopbits: 1 | 2;
  scanMs: number;
  pty: boolean;
  /** changing values and scheduled service requests (program.ts) */
  program?: PlcProgram;
}

export interface EthernetPlcConfig {
  cpu: CpuModel;
  station: number;
  host: string;
  mewtocolPort: number;
  modbusPort: number;
  scanMs: number;
  program?: PlcProgram;
}

export type PlcConfig = { [C in SerialConnector]: SerialPlcConfig | null } & { COM4: EthernetPlcConfig | null };

/** 127.0.0.2 keeps the PLC apart from the daemon on 127.0.0.1; where it cannot be bound, 127.0.0.1 is used */
export const DEFAULT_PLC_HOST = '127.0.0.2';

const serialDefault = (cpu: CpuModel, protocol: SerialPlcConfig['protocol']): SerialPlcConfig => ({
  cpu,
  station: 1,
  protocol,
  baud: 9600,
  bits: 8,
  parity: 'odd',
  stopbits: 1,
  scanMs: DEFAULT_SCAN_MS,
  pty: false,
});

const DEFAULTS: PlcConfig = {
  COM1: serialDefault('FP-XH', 'MEWTOCOL'),
  COM2: serialDefault('FP0R', 'MODBUS'),
  COM3: serialDefault('FP7', 'MEWTOCOL'),
  COM4: { cpu: 'FP-X', station: 1, host: DEFAULT_PLC_HOST, mewtocolPort: DEFAULT_MEWTOCOL_PORT, modbusPort: DEFAULT_MODBUS_PORT, scanMs: DEFAULT_SCAN_MS },
};

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

// valibot takes an array for an object: refuse anything but a plain object first
const plainObject = v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'expected an object');
const strict = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(plainObject, v.strictObject(entries, `unknown field (known: ${Object.keys(entries).join(', ')})`));
const int = (min: number, max: number, d: number, what = `a whole number ${min}-${max}`) =>
  v.optional(v.pipe(v.number(`expected ${what}`), v.integer(`expected ${what}`), v.minValue(min, `expected ${what}`), v.maxValue(max, `expected ${what}`)), d);
const oneOf = <T extends string | number>(values: readonly T[], d: T) => v.optional(v.picklist(values, `expected one of ${values.join(', ')}`), d);
const scan = (d: number) => v.optional(v.pipe(v.number('expected ms'), v.minValue(0, 'expected ms ≥ 0'), v.maxValue(10_000, 'expected ms ≤ 10000')), d);

const serialSchema = (d: SerialPlcConfig) =>
  v.pipe(
    strict({
      cpu: oneOf(CPU_MODELS, d.cpu),
      station: int(STATION_RANGE.min, STATION_RANGE.max, d.station),
      protocol: oneOf(['MEWTOCOL', 'MODBUS'] as const, d.protocol),
      baud: oneOf(BAUD_RATES, d.baud),
      bits: oneOf([7, 8] as const, d.bits),
      parity: oneOf(PARITIES, d.parity),
      stopbits: oneOf([1, 2] as const, d.stopbits),
      scanMs: scan(d.scanMs),
      pty: v.optional(v.boolean('expected true or false'), d.pty),
      program: v.optional(programSchema),
    }),
    v.forward(
      v.partialCheck(
        [['protocol'], ['station']],
        (c) => c.protocol !== 'MEWTOCOL' || c.station <= MEWTOCOL_STATION_MAX,
        `expected a whole number 1-${MEWTOCOL_STATION_MAX} for MEWTOCOL (1-${STATION_RANGE.max} is for MODBUS)`,
      ),
      ['station'],
    ),
  );

const ethernetSchema = (d: EthernetPlcConfig) =>
  strict({
    cpu: oneOf(CPU_MODELS, d.cpu),
    // the same PLC answers MEWTOCOL and Modbus: the MEWTOCOL range applies
    station: int(STATION_RANGE.min, MEWTOCOL_STATION_MAX, d.station),
    host: v.optional(v.pipe(v.string('expected an IPv4 address'), v.regex(IPV4, 'expected an IPv4 address')), d.host),
    mewtocolPort: int(0, 65535, d.mewtocolPort, 'a TCP port 0-65535 (0 = any free port)'),
    modbusPort: int(0, 65535, d.modbusPort, 'a TCP port 0-65535 (0 = any free port)'),
    scanMs: scan(d.scanMs),
    program: v.optional(programSchema),
  });

const connector = <S extends v.GenericSchema>(schema: S, d: v.InferOutput<S>) => v.optional(v.nullable(schema), d);

const configSchema = strict({
  COM1: connector(serialSchema(DEFAULTS.COM1!), DEFAULTS.COM1!),
  COM2: connector(serialSchema(DEFAULTS.COM2!), DEFAULTS.COM2!),
  COM3: connector(serialSchema(DEFAULTS.COM3!), DEFAULTS.COM3!),
  COM4: connector(ethernetSchema(DEFAULTS.COM4!), DEFAULTS.COM4!),
});

export class PlcConfigError extends Error {}

/** The configuration with defaults filled in; throws a PlcConfigError naming each bad field. */
export function parsePlcConfig(input: unknown, source = 'PLC configuration'): PlcConfig {
  const r = v.safeParse(configSchema, input);
  if (r.success) return r.output as PlcConfig;
  const problems = r.issues.map((i) => `${v.getDotPath(i) ?? '(top level)'}: ${i.message}`);
  throw new PlcConfigError(`${source}: ${problems.join('; ')}`);
}

export const DEFAULT_PLC_CONFIG: PlcConfig = parsePlcConfig({});

/** Reads and checks a configuration file. */
export async function loadPlcConfig(file: string): Promise<PlcConfig> {
  const text = await readFile(file, 'utf8').catch((e: Error) => {
    throw new PlcConfigError(`${file}: cannot be read: ${e.message}`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new PlcConfigError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  return parsePlcConfig(json, file);
}
