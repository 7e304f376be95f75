// The PLC side of the examples (library zip, plc_register_plan.txt): a register plan a Panasonic
// programmer types in, for the control blocks at the start registers the example settings.json
// files use and for their data points with the example values. Made from the block tables
// (device/model/blocks) and the example settings, so the plan can never name another register
// than the unit reads and writes.
import { blockText } from '../model/blocks/describe.ts';
import { type ControlBlock, roleOffset, SERVICE_ERROR, STATE } from '../model/blocks/index.ts';
import { type DataPoint, wordsOf } from '../model/sections/datapoint.ts';
import { controlInterfaceText } from './example-library.ts';

export const PLC_PLAN_FILE = 'plc_register_plan.txt';

/** A service block as the examples place it. */
export interface PlannedBlock {
  block: ControlBlock;
  /** plc_control_dt of the example settings */
  start: number;
  /** the examples whose settings.json uses it */
  examples: string[];
}

const dt = (n: number) => `DT${n}`;

/** How to put a value into its words with FP instructions (FPWIN GR / FPWIN Pro mnemonics). */
function moveOf(p: DataPoint, value: number): string {
  const words = wordsOf(p.type);
  if (p.type === 'REAL') return `F1 (DMV)  f${value}  ${dt(p.address)}`;
  if (['INT', 'UINT', 'HEX', 'BIN'].includes(p.type)) return `F0 (MV)   K${value}  ${dt(p.address)}`;
  if (['DINT', 'UDINT', 'HEX32'].includes(p.type) && value <= 0x7fffffff) return `F1 (DMV)  K${value}  ${dt(p.address)}`;
  return `write ${value} as ${p.type} (${words} words) from ${dt(p.address)}`;
}

function pointLines(points: readonly DataPoint[], samples: readonly number[]): string[] {
  return points.map((p, i) => {
    const range = `${dt(p.address)} .. ${dt(p.address + wordsOf(p.type) - 1)}`;
    return `  ${range.padEnd(17)}${p.name.padEnd(13)}${p.type.padEnd(7)}${String(samples[i]).padEnd(9)}${moveOf(p, samples[i]!)}`;
  });
}

const named = (values: Readonly<Record<string, number>>) =>
  Object.entries(values)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');

function blockLines(b: PlannedBlock): string[] {
  const { block, start } = b;
  const at = (role: 'request' | 'state' | 'error' | 'counter') => dt(start + roleOffset(block, role));
  const [firstName, firstValue] = Object.entries(block.requests)[0]!;
  const pointers = block.words.filter((w) => w.dir === 'plc' && w.role === undefined);
  return [
    `[${block.service}] ${block.section}.plc_control_dt = ${dt(start)}: ${dt(start)} .. ${dt(start + block.length - 1)} (${block.length} words; settings.json of ${b.examples.join(', ')})`,
    ...blockText(block, start),
    '  To ask:',
    ...(pointers.length ? ['    first the words the request needs of those written by the PLC above (pointers, lengths, options),'] : []),
    `    remember the counter ${at('counter')}, then last of all`,
    `    F0 (MV)   K${firstValue}  ${at('request')}          ; request = ${firstValue} ${firstName}, once on a rising edge of your trigger`,
    `  The unit writes 0 into ${at('request')} when it takes the request. The answer is there when`,
    `  ${at('counter')} differs from the value remembered: read ${at('state')} (state: ${named(STATE)})`,
    `  and ${at('error')} (error code, 0 = none; the table of codes is below).`,
    '',
  ];
}

/** The plan: the data points of the database examples, then every service block. */
export function plcPlan(blocks: readonly PlannedBlock[], points: readonly DataPoint[], samples: readonly number[]): { name: string; data: string } {
  const data = [
    'PLC side of the examples: a register plan to type in',
    '====================================================',
    '',
    'The registers below are the ones the settings.json files of the example zips use (their',
    'start registers are the defaults of the service pages). Panasonic FP series; the instructions',
    'are FPWIN GR / FPWIN Pro mnemonics (F0 MV one word, F1 DMV two words; K decimal, f floating',
    'point). A block moved on a service page must be moved here too.',
    '',
    controlInterfaceText(),
    '',
    '[datapoints] The data points of the SQL, MongoDB and InfluxDB examples (datalist)',
    '  with the example values (as in sample.lp); the unit reads them when it takes a request.',
    `  ${'Registers'.padEnd(17)}${'Name'.padEnd(13)}${'Type'.padEnd(7)}${'Value'.padEnd(9)}Instruction`,
    ...pointLines(points, samples),
    '',
    ...blocks.flatMap(blockLines),
    'Error codes (every block):',
    ...Object.entries(SERVICE_ERROR).map(([k, n]) => `  ${String(n).padStart(2)} ${k}`),
    '',
  ].join('\n');
  return { name: PLC_PLAN_FILE, data };
}
