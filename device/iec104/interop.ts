// The interoperability list of the controlled station (IEC 60870-5-104 clause 9), generated from the
// tables the code uses: the type table (device/protocol/iec104/types.ts) for every type
// identification, the pew_60870 schema for the address, timer and window ranges, and FUNCTIONS
// below for the application functions. docs/iec104.md shows it (build/iec104-doc.ts writes it,
// interop.test.ts fails while page and tables differ); the library zip can carry interopJson().

import { metaAt } from '../model/introspect.ts';
import { iecSchema } from '../model/sections/iec.ts';
import { COT } from '../protocol/iec104/cot.ts';
import { type Direction, TYPES, type TypeInfo } from '../protocol/iec104/types.ts';

/** The application functions of clause 9 the station offers (true) or not (false). */
export const FUNCTIONS = {
  station_interrogation: true, // QOI 20, answers with COT 20
  group_interrogation: true, // QOI 21-36, groups 1-16, answers with COT 21-36
  counter_interrogation: true, // general (RQT 5) and groups 1-4
  read: true, // C_RD_NA_1, answered to the requesting connection only
  clock_synchronization: true, // C_CS_NA_1, ACTCON to the requester only
  direct_execute: true,
  select_before_operate: true,
  test_procedure: true, // C_TS_TA_1
  reset_process: true, // C_RP_NA_1
  end_of_initialization: true, // M_EI_NA_1 after start
  spontaneous_transmission: true,
  cyclic_transmission: false,
  background_scan: false,
  parameter_loading: false,
  parameter_activation: false,
  file_transfer: false,
  acquisition_delay: false, // C_CD_NA_1 is not used in 104
} as const;

const DIRECTIONS: Record<Direction, string> = {
  monitor: 'Process information in monitor direction',
  control: 'Process information in control direction',
  system_monitor: 'System information in monitor direction',
  system_control: 'System information in control direction',
  parameter: 'Parameter in control direction',
  file: 'File transfer',
};

const range = (path: string) => {
  const m = metaAt(iecSchema, path);
  return { min: m.min as number, max: m.max as number, default: m.default as number };
};

/** Every cause the station sends or understands, the interrogation and counter groups spelt out. */
function causes(): { value: number; name: string }[] {
  const out = Object.entries(COT).map(([name, value]) => ({ value: value as number, name }));
  for (let g = 1; g <= 16; g++) out.push({ value: COT.interrogated_station + g, name: `interrogated_group_${g}` });
  for (let g = 1; g <= 4; g++) out.push({ value: COT.counter_general + g, name: `counter_group_${g}` });
  return out.sort((x, y) => x.value - y.value);
}

export function interopJson() {
  return {
    standard: 'IEC 60870-5-104',
    station: 'controlled station (outstation)',
    addresses: {
      cause_of_transmission_octets: 2, // cause + originator address
      common_address_octets: 2,
      information_object_address_octets: 3,
      structured_addresses: true, // asdu_structured: octets of 0-255
      common_address: range('asdu_address'),
      broadcast_common_address: 0xffff,
      originator: range('originator'),
    },
    link: {
      port: range('port'),
      t0: 'not configurable: the control station opens the TCP connection',
      t1_s: range('connections.0.t1'),
      t2_s: range('connections.0.t2'),
      t3_s: range('connections.0.t3'),
      k: range('connections.0.k'),
      w: range('connections.0.w'),
      rules: ['t2 < t1', 't1 < t3', 'w <= 2/3 k'],
      connections: metaAt(iecSchema, 'connections').maxLength as number,
    },
    types: TYPES.map(({ id, name, description, direction, time, support }) => ({ id, name, description, direction, time, support })),
    causes: causes(),
    functions: FUNCTIONS,
  };
}

const mark = (t: TypeInfo) => (t.support === 'yes' ? 'X' : t.support === 'no' ? ' ' : 'not used in 104');
const r = (x: { min: number; max: number; default: number }, unit = '') => `${x.min}-${x.max}${unit} (default ${x.default}${unit})`;
const words = (k: string) => k.replaceAll('_', ' ').replace(/\b(ca|ioa)\b/, (x) => x.toUpperCase());

/** The interoperability list as the Markdown section of docs/iec104.md. */
export function interopMarkdown(): string {
  const j = interopJson();
  const out: string[] = [];
  out.push(
    '### Type identifications',
    '',
    'X: served by the unit; blank: not served; "not used in 104": a type of IEC 60870-5-101 the 104 companion standard excludes.',
    '',
  );
  for (const [dir, title] of Object.entries(DIRECTIONS) as [Direction, string][]) {
    out.push(`**${title}**`, '', '| type | name | description | served |', '|---|---|---|---|');
    for (const t of TYPES.filter((x) => x.direction === dir)) out.push(`| <${t.id}> | ${t.name} | ${t.description} | ${mark(t)} |`);
    out.push('');
  }
  const a = j.addresses;
  const l = j.link;
  out.push(
    '### Addresses and link parameters',
    '',
    '| parameter | value |',
    '|---|---|',
    `| cause of transmission | ${a.cause_of_transmission_octets} octets (with originator address, ${r(a.originator)}) |`,
    `| common address of ASDU | ${a.common_address_octets} octets, ${r(a.common_address)}; broadcast ${a.broadcast_common_address} for interrogation, counter interrogation and clock synchronization |`,
    `| information object address | ${a.information_object_address_octets} octets, structured or unstructured |`,
    `| port | ${r(l.port)} |`,
    `| t0 | ${l.t0} |`,
    `| t1 | ${r(l.t1_s, ' s')} |`,
    `| t2 | ${r(l.t2_s, ' s')} |`,
    `| t3 | ${r(l.t3_s, ' s')} |`,
    `| k | ${r(l.k)} |`,
    `| w | ${r(l.w)} |`,
    `| rules | ${l.rules.join(', ')} |`,
    `| connections (redundancy group) | up to ${l.connections} |`,
    '',
    '### Causes of transmission',
    '',
    j.causes.map((c) => `${c.value} ${words(c.name)}`).join(' · '),
    '',
    '### Application functions',
    '',
    '| function | offered |',
    '|---|---|',
    ...Object.entries(j.functions).map(([k, v]) => `| ${words(k)} | ${v ? 'yes' : 'no'} |`),
  );
  return out.join('\n');
}
