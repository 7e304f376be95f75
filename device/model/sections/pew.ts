// COM interfaces and PLC settings (spec §3 "COM (pew)", §5, §9).
import * as v from 'valibot';
import { bitAddress, bool, choice, group, IPV4_RE, int, intOr, list, num, obj, text } from '../fields.ts';
import { type Issue, issue, msg } from '../issues.ts';
import {
  BAUD_RATES,
  ETHERNET_ID,
  INTERFACE_IDS,
  INTERFACE_NAMES,
  INTERFACE_SERVICES,
  INTERNAL_ID,
  type InterfaceId,
  PARITIES,
  PROTOCOLS,
  RS485_CAPABLE_ID,
  SERIAL_MODES,
  STATION_MAX,
} from '../plc.ts';
import { defineSection } from '../section.ts';

// "a.b.c.d:port" of the PLC on the Ethernet interface
const IP_PORT_RE = new RegExp(`^${IPV4_RE.source.slice(1, -1)}:([1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])$`);

export const interfaceSchema = obj({
  id: choice(INTERFACE_IDS, 0),
  name: text(16, 'COM1'),
  service: choice(INTERFACE_SERVICES, 0),
  enabled: bool(false),
  mode: choice(SERIAL_MODES, 1), // spec §3: RS232 (1) or RS485 (5); only COM2 offers RS485
  autobaud: bool(false),
  baudrate: choice(BAUD_RATES, 9600),
  bits: choice([7, 8] as const, 8),
  parity: choice(PARITIES, 'odd'), // FP PLCs ship with 9600 8O1 on their COM ports
  stopbits: choice([1, 2] as const, 1),
  timeout: int(50, 60000, 1000), // spec §9: interface timeout 50-60000 ms
  protocol: choice(PROTOCOLS, 'MEWTOCOL'),
  flow: choice(['none', 'rtscts'] as const, 'none'),
  wait: int(0, 60000, 0), // ms between the answer and the next request
  ip_port: text(
    21,
    '',
    v.check((s: string) => s === '' || IP_PORT_RE.test(s), msg('invalid_ip')),
  ),
  addr_offset: intOr(-255, 255, -32768, -32768), // spec §9: -255..255, disabled -32768; used on COM4
});
export type ComInterface = v.InferOutput<typeof interfaceSchema>;

const base = v.getDefaults(interfaceSchema) as ComInterface;
const iface = (id: InterfaceId, extra: Partial<ComInterface> = {}): ComInterface => ({ ...base, id, name: INTERFACE_NAMES[id], ...extra });
// spec §3: five interfaces; INTERNAL enabled and Modbus by default
export const DEFAULT_INTERFACES: ComInterface[] = [
  iface(0),
  iface(3, { mode: 5 }),
  iface(1),
  iface(INTERNAL_ID, { enabled: true, protocol: 'MODBUS' }),
  iface(ETHERNET_ID),
];

export const pewSchema = obj({
  interfaces: list(interfaceSchema, INTERFACE_IDS.length, DEFAULT_INTERFACES),
  interface_plc: choice(INTERFACE_IDS, INTERNAL_ID), // the service control interface (mewtocol.md §9)
  address_plc: int(0, STATION_MAX, 0), // station number of the control device; 0 for RS232
  restart_by_plc: bool(false),
  restart_level: choice([0, 1] as const, 1), // flag level that requests the restart
  restart_polling: num(1, 120, 5), // spec §9: poll time 1-120 s
  restart_control_r: group({ area: choice(['R'] as const, 'R'), bit: bitAddress('') }),
  restart_by_time: int(0, 500, 0), // spec §9: restart hours 500; 0 = never
});
export type Pew = v.InferOutput<typeof pewSchema>;

function rules(p: Pew): Issue[] {
  const out: Issue[] = [];
  const seen = new Set<number>();
  p.interfaces.forEach((it, i) => {
    if (seen.has(it.id)) out.push(issue(`interfaces.${i}.id`, 'duplicate'));
    seen.add(it.id);
    if (it.mode === 5 && it.id !== RS485_CAPABLE_ID) out.push(issue(`interfaces.${i}.mode`, 'invalid_value', { allowed: [1] }));
    if (it.id === INTERNAL_ID && it.protocol !== 'MODBUS') out.push(issue(`interfaces.${i}.protocol`, 'invalid_value', { allowed: ['MODBUS'] }));
    if (it.id === ETHERNET_ID && it.enabled && it.ip_port === '') out.push(issue(`interfaces.${i}.ip_port`, 'required'));
  });
  // spec §3: exactly the five interfaces, each once
  if (p.interfaces.length !== INTERFACE_IDS.length) out.push(issue('interfaces', 'invalid_value', { allowed: [...INTERFACE_IDS] }));
  if (p.restart_by_plc && p.restart_control_r.bit === '') out.push(issue('restart_control_r.bit', 'required'));
  return out;
}

export const pew = defineSection({
  key: 'pew',
  index: 0,
  schema: pewSchema,
  passwords: [],
  rules,
});

export function interfaceById(p: Pew, id: number): ComInterface | undefined {
  return p.interfaces.find((i) => i.id === id);
}
