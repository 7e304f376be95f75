// `npm run plc -- request <COMn> <service> <request> [word=value …] [pointer=text …] [--dt N] [--text-at N]`:
// sets a service request in a virtual PLC by the names of the control block tables
// (device/model/blocks), e.g.
//   npm run plc -- request COM1 mqtt publish topic=plant/tank1/level payload=21.5 qos=1 retain=1
// A name with a pointer pair in the block (topic, payload, path, body, text, status_topic,
// subN_topic) takes a text: it is placed from DT `--text-at` (default 1000) on, one after the
// other on even word boundaries, and the block's address and length words point at it. Other
// names set their word (numbers). The block starts at `--dt` (default: the spec §9 default) and
// its request word is written last, so the unit sees a complete request.
import { blockOf, CONTROL_BLOCKS, type ControlBlock, offsetOf } from '../device/model/blocks/index.ts';
import { wordsOfBytes } from '../device/service-runtime/plc-text.ts';

export interface WordWrite {
  address: string;
  values: number[];
}

export const TEXT_AT_DEFAULT = 1000;

function option(args: string[], name: string): number | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || !/^\d+$/.test(v)) throw new Error(`request: ${name} needs a DT number`);
  args.splice(i, 2);
  return Number(v);
}

const hasWord = (b: ControlBlock, name: string) => b.words.some((w) => w.name === name);

/** The memory writes of a request line (after `request <COMn>`), in the order to send them. */
export function requestWrites(rest: readonly string[]): WordWrite[] {
  const args = [...rest];
  const dtOpt = option(args, '--dt');
  let textAt = option(args, '--text-at') ?? TEXT_AT_DEFAULT;
  const [service = '', request = '', ...pairs] = args;
  const block = blockOf(service);
  if (!block) throw new Error(`request: unknown service "${service}" (one of ${CONTROL_BLOCKS.map((b) => b.service).join(', ')})`);
  const value = block.requests[request] ?? (/^\d+$/.test(request) ? Number(request) : undefined);
  if (value === undefined) throw new Error(`request: ${service} has no request "${request}" (${Object.keys(block.requests).join(', ')})`);
  const dt = dtOpt ?? block.defaultDt;
  const out: WordWrite[] = [];
  const word = (name: string, v: number) => out.push({ address: `DT${dt + offsetOf(block, name)}`, values: [v & 0xffff] });
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq < 1) throw new Error(`request: "${pair}" is not name=value`);
    const name = pair.slice(0, eq);
    const text = pair.slice(eq + 1);
    if (hasWord(block, `${name}_addr`) && hasWord(block, `${name}_len`)) {
      const bytes = new TextEncoder().encode(text);
      if (bytes.length > 0) out.push({ address: `DT${textAt}`, values: wordsOfBytes(bytes) });
      word(`${name}_addr`, textAt);
      word(`${name}_len`, bytes.length);
      textAt += Math.max(1, Math.ceil(bytes.length / 2));
      continue;
    }
    if (!hasWord(block, name) || name === 'request') throw new Error(`request: ${service} has no word "${name}" to set`);
    if (!/^\d+$/.test(text)) throw new Error(`request: ${name}=${text} is not a whole number`);
    word(name, Number(text));
  }
  word('request', value);
  return out;
}
