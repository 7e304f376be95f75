// The PLC side of the services for the example downloads (spec §7 "library"): every control
// register block a section can reserve, read from the section modules (registers() hook and
// defaults), so that the text can never disagree with the schema.

import { interopJson } from '../iec104/interop.ts';
import { blocksJson, blockText, wordsText } from '../model/blocks/describe.ts';
import { IEC_BUFFERS, iecBuffersJson } from '../model/blocks/iec104.ts';
import { CONTROL_BLOCKS as CONTROL_BLOCK_TABLES } from '../model/blocks/index.ts';
import { CONFIG_SECTIONS } from '../model/index.ts';
import { INTERFACE_NAMES, type InterfaceId } from '../model/plc.ts';
import { defaultsOf, type RegisterBlock, type SectionDef } from '../model/section.ts';
import { pew } from '../model/sections/pew.ts';

export interface ControlBlock extends RegisterBlock {
  section: string;
  purpose: string;
  /** the field holding how often the unit reads the block, and its default in seconds */
  poll?: { path: string; seconds: number };
}

// What each block is for. The word-by-word layouts of the service blocks are the tables of
// device/model/blocks; the other blocks are described on their docs pages.
const PURPOSE: Record<string, string> = {
  'pew_mqtt.plc_control_dt': 'MQTT client: control block',
  'pew_ftpc.plc_control_dt': 'FTP client: control block',
  'pew_rtc.rtc_control_rtc_r': 'PLC clock update: control block (the clock itself is written at rtc_address_dt)',
  'pew_httpc.plc_control_dt': 'HTTP client: control block',
  'pew_email.plc_control_dt': 'E-mail client: control block',
  'pew_tls.plc_control_dt': 'TLS bridge, client part: control block',
  'pew_tls.plc_status_dt': 'TLS bridge, server part: status block',
  'pew_sql.plc_control_dt': 'SQL client: control block',
  'pew_nosql.plc_control_dt': 'NoSQL client (MongoDB or InfluxDB): control block',
  'pew_log.mem_write_stop': 'Data logger: the unit reports that writing stopped',
  'pew_log.mem_write_error': 'Data logger: the unit reports a write error',
  'pew_log.mem_write_status': 'Data logger: the unit reports the write status',
  'pew_log.mem_notify': 'Data logger: the unit reports low memory',
  'pew_log.plc_ctrl_wr': 'Data logger: the PLC starts and stops logging',
};
// blocks whose poll time is not in `plc_poll`
const POLL_FIELD: Record<string, string> = { 'pew_tls.plc_status_dt': 'plc_poll_tlsserver', 'pew_rtc.rtc_control_rtc_r': 'rtc_polling' };

/** Every block the section can reserve, at its default start register. */
export function controlBlocks(def: SectionDef): ControlBlock[] {
  const defaults = defaultsOf(def) as Record<string, unknown>;
  // registers() only reports the blocks of switched-on parts: switch every flag on to see them all
  const on = Object.fromEntries(Object.entries(defaults).map(([k, x]) => [k, typeof x === 'boolean' ? true : x]));
  return (def.registers?.(on) ?? []).map((b) => {
    const id = `${def.key}.${b.path}`;
    const pollPath = POLL_FIELD[id] ?? 'plc_poll';
    const seconds = defaults[pollPath];
    return {
      ...b,
      section: def.key,
      purpose: PURPOSE[id] ?? id,
      ...(typeof seconds === 'number' ? { poll: { path: pollPath, seconds } } : {}),
    };
  });
}

export const dt = (n: number) => `DT${n}`;
export const blockRange = (b: RegisterBlock) => (b.length === 1 ? dt(b.start) : `${dt(b.start)} .. ${dt(b.start + b.length - 1)}`);

/** Where the unit talks to the PLC about services: the COM page's service control interface. */
export function controlInterfaceText(): string {
  const p = defaultsOf(pew);
  return (
    `The unit reads and writes these registers in the PLC chosen on the COM page as the service\n` +
    `control interface (field interface_plc of section pew, default ${INTERFACE_NAMES[p.interface_plc as InterfaceId]},\n` +
    `station number address_plc, default ${p.address_plc}). That interface must not be transparent\n` +
    `(the console answers transparent_interface), and no two blocks may overlap (addresses_overlap).`
  );
}

export const LAYOUT_NOTE =
  `Every service block follows one convention: the PLC sets the request word, the unit clears it\n` +
  `when it takes the request and writes a state (0 idle, 1 running, 2 done, 3 error, 4 waiting for\n` +
  `the peer), an error code (one table for all services) and a counter of finished requests that\n` +
  `wraps at 65536. Strings and payloads stay in PLC memory where the block points: a DT address\n` +
  `and a length in bytes, two bytes a word, the first in the low byte. The library example lists\n` +
  `each block word by word (README.txt) and as JSON (control_blocks.json); docs/services.md has a\n` +
  `worked example per service. Reserve the whole block for the service.`;

/** The word-by-word layout of a section's service block, when it has one (device/model/blocks). */
export function layoutLines(section: string, start?: number): string[] {
  const block = CONTROL_BLOCK_TABLES.find((b) => b.section === section);
  if (!block) return [];
  return [`Word by word (${block.service}, at its default start):`, ...blockText(block, start ?? block.defaultDt)];
}

function allBlocks(): ControlBlock[] {
  return CONFIG_SECTIONS.flatMap(controlBlocks).sort((a, b) => a.start - b.start);
}

const pad = (s: string, n: number) => s.padEnd(n);

/** The `library` archive: README.txt and the same table as CSV. */
export function libraryFiles(): { name: string; data: string }[] {
  const blocks = allBlocks();
  const rows = blocks.map(
    (b) =>
      pad(blockRange(b), 18) +
      pad(String(b.length), 7) +
      pad(`${b.section}.${b.path}`, 28) +
      pad(b.poll ? `${b.poll.path} ${b.poll.seconds} s` : '-', 24) +
      b.purpose,
  );
  const readme = [
    'PLC library: the control registers of the services',
    '===================================================',
    '',
    'The services of the unit (MQTT, FTP, HTTP and e-mail clients, SQL and NoSQL clients, TLS bridge,',
    'PLC clock, data logger) are driven by the PLC through blocks of DT registers. Each service that is',
    'switched on reserves its block; the start register is a setting of the service page, the length',
    'is fixed. This list shows every block at its default start register.',
    '',
    controlInterfaceText(),
    '',
    LAYOUT_NOTE,
    '',
    `${pad('Registers', 18) + pad('Words', 7) + pad('Setting (section.field)', 28) + pad('Read every (default)', 24)}Purpose`,
    '-'.repeat(110),
    ...rows,
    '',
    ...CONTROL_BLOCK_TABLES.flatMap((b) => ['', ...layoutLines(b.section)]),
    '',
    'The PLC clock (pew_rtc), the TLS bridge (pew_tls) and the data logger (pew_log) blocks are',
    'described in docs/rtc.md, docs/tls.md and docs/logger.md; the SQL and NoSQL blocks are reserved',
    'at their full length for their engines.',
    '',
    'A block moved on a service page must be moved in the PLC program too. The REST API (pew_api) is',
    'not driven through control registers. IEC 60870 (pew_60870) exchanges its data through buffers of',
    'its own in each connection (plc_buffer_rbm, plc_buffer_m, plc_buffer_c), set on the IEC page;',
    'docs/iec104.md "The PLC side" has the handshakes, iec104_buffers.json the same words. Word by word:',
    ...IEC_BUFFERS.flatMap((b) => ['', `${b.at}:`, ...wordsText(b.words, b.base)]),
    '',
    'control_registers.csv holds the same table for a spreadsheet or an import script;',
    'control_blocks.json holds every service block word by word for a program;',
    'plc_register_plan.txt is the PLC side of the example zips to type in: their data points with',
    'the example values, and each block at the register its settings.json uses, with the request.',
    'iec104_interoperability.json is the IEC 104 station’s interoperability list (docs/iec104.md',
    '"Interoperability list"): every type identification marked, the address sizes, the timer and',
    'window ranges, the causes of transmission and the functions offered, for a control centre’s',
    'integrator.',
    '',
  ].join('\n');
  const csv = [
    'section,field,start,end,length,poll_field,poll_default_s,purpose',
    ...blocks.map((b) => [b.section, b.path, b.start, b.start + b.length - 1, b.length, b.poll?.path ?? '', b.poll?.seconds ?? '', `"${b.purpose}"`].join(',')),
    '',
  ].join('\n');
  return [
    { name: 'README.txt', data: readme },
    { name: 'control_registers.csv', data: csv },
    { name: 'control_blocks.json', data: blocksJson(CONTROL_BLOCK_TABLES) },
    { name: 'iec104_buffers.json', data: iecBuffersJson() },
    { name: 'iec104_interoperability.json', data: `${JSON.stringify(interopJson(), null, 2)}\n` },
  ];
}
