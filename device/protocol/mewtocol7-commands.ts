// MEWTOCOL7 command texts (after `#` / `$`): code value (2) + command name (4) + parameters
// (mewtocol.md §5). Only what the public facts show:
//
//   STRD  status read, code value 30: request `30STRD00`; reply `30STRD` + status(2) + series(2,
//         `07` = FP7) + model(2) + special order(4) + 3 versions(4 each, `0453` = 4.53) + operation
//         mode(2) + error flags(2) + self-diagnostic(4) + SD-card info… ([1src] MNET, one captured reply)
//   MMRD  data area read, code value 00: `00MMRD` + `D` + `001` + `G0` + area(2) + address(9) +
//         count(4), from the one manual example `…#00MMRDD001G0DT0000000001000` ([off] FP7M p182)
//
// Uncertain [?]:
//   - STRD: what the leading status `00` and the request's trailing `00` mean; which three
//     versions are sent; whether the mode and error bytes use the RT bit layout (assumed, §4.3);
//     the self-diagnostic byte order (read as written, not swapped like RT); the SD-card tail (raw).
//   - MMRD: the manual names no field. Read here as `D` (device kind?), `001` (number of blocks?),
//     `G0` (global device, unit 0?), area `DT`, 9-digit address 0, count 1000; the split of
//     `0000000001000` into 9 + 4 digits is a guess (1000 words fit the 4096-char frame). Only DT
//     appears in the example; other 2-letter areas are accepted on the same pattern. The reply
//     layout is not documented: assumed `00MMRD` + 4 hex chars per word, low byte first, as in
//     MEWTOCOL-COM (§2.2).
//   - MMWT (write) is named in the command list but neither its code value nor its layout is
//     public, so it is not implemented; write FP7 data with MEWTOCOL-COM WD, which FP7 answers (§5).
import { dec, hex, hexToWords, isWord, parseDec, parseHex, wordsToHex } from './ascii.ts';
import { type CpuInfo, type ErrorFlags, errorFlags, type ModeFlags, modeFlags } from './mewtocol-status.ts';
import { check, fail, isInt, ok, type Result } from './result.ts';

export type Mew7Area = 'DT' | 'LD' | 'WX' | 'WY' | 'WR' | 'WL';
const MEW7_AREAS: readonly string[] = ['DT', 'LD', 'WX', 'WY', 'WR', 'WL'];

export type Mew7Request = { cmd: 'STRD' } | { cmd: 'MMRD'; area: Mew7Area; address: number; count: number };

export const MEW7_ADDRESS_MAX = 999_999_999; // 9 digits
/** Most words of one MMRD reply in one 4096-char frame: (4096 - `>@EEE00$00MMRD` 14 - CRC 4 - CR 1) / 4. */
export const MEW7_MAX_READ_WORDS = 1019;

const MMRD_PREFIX = '00MMRDD001G0';
const STRD = '30STRD';

export function encodeMew7Request(req: Mew7Request): string {
  if (req.cmd === 'STRD') return `${STRD}00`;
  check(MEW7_AREAS.includes(req.area), `area ${req.area} not readable with MMRD`);
  check(isInt(req.count, 1, 9999) && isInt(req.address, 0, MEW7_ADDRESS_MAX - req.count + 1), `MMRD ${req.address}+${req.count} out of range`);
  return MMRD_PREFIX + req.area + dec(req.address, 9) + dec(req.count, 4);
}

export function decodeMew7Request(text: string): Result<Mew7Request> {
  if (text === `${STRD}00`) return ok({ cmd: 'STRD' });
  if (text.startsWith(MMRD_PREFIX) && text.length === MMRD_PREFIX.length + 15) {
    const area = text.slice(12, 14);
    const address = parseDec(text.slice(14, 23));
    const count = parseDec(text.slice(23, 27));
    if (!MEW7_AREAS.includes(area)) return fail('parameter', `unknown area "${area}"`);
    if (address === undefined || count === undefined || count < 1 || address + count - 1 > MEW7_ADDRESS_MAX) return fail('data', 'bad MMRD address or count');
    return ok({ cmd: 'MMRD', area: area as Mew7Area, address, count });
  }
  return fail('not_supported', `command "${text.slice(0, 6)}" not supported`);
}

// FP7 models by STRD model code (§4.4 last row); codes kept as the 2 chars sent
const FP7_MODELS: Readonly<Record<string, string>> = {
  '03': 'CPS41E',
  '04': 'CPS31E',
  '05': 'CPS31',
  '06': 'CPS41ES',
  '07': 'CPS31ES',
  '08': 'CPS31S',
  '09': 'CPS21',
  '10': 'ELC500',
};

export interface StrdStatus {
  result: string; // leading 2 chars, `00` on the capture [?]
  series: string; // `07` = FP7
  model: string;
  modelName: string; // e.g. CPS41E, or 'unknown'
  cpu: CpuInfo;
  specialOrder: string; // 4 chars
  versions: [string, string, string]; // 4 chars each as sent, e.g. `0453`
  versionTexts: [string, string, string]; // `4.53`
  modeByte: number;
  mode: ModeFlags;
  errorByte: number;
  errors: ErrorFlags;
  selfDiag: number;
  rest: string;
}

const versionText = (v: string) => (/^\d{4}$/.test(v) ? `${Number(v.slice(0, 2))}.${v.slice(2)}` : v);

/** The STRD reply data after `30STRD`. */
export function decodeStrdData(data: string): Result<StrdStatus> {
  if (data.length < 30) return fail('bad_length', `STRD data has ${data.length} chars, at least 30 expected`);
  const modeByte = parseHex(data.slice(22, 24));
  const errorByte = parseHex(data.slice(24, 26));
  const selfDiag = parseHex(data.slice(26, 30));
  if (modeByte === undefined || errorByte === undefined || selfDiag === undefined) return fail('bad_data', 'STRD mode, error or diagnostic field is not hex');
  const series = data.slice(2, 4);
  const model = data.slice(4, 6);
  const versions: [string, string, string] = [data.slice(10, 14), data.slice(14, 18), data.slice(18, 22)];
  const fp7 = series === '07';
  return ok({
    result: data.slice(0, 2),
    series,
    model,
    modelName: (fp7 && FP7_MODELS[model]) || 'unknown',
    cpu: fp7 ? { code: 0x07, name: 'FP7', families: ['FP7'] } : { code: parseHex(series) ?? -1, name: 'unknown', families: [] },
    specialOrder: data.slice(6, 10),
    versions,
    versionTexts: versions.map(versionText) as [string, string, string],
    modeByte,
    mode: modeFlags(modeByte),
    errorByte,
    errors: errorFlags(errorByte),
    selfDiag,
    rest: data.slice(30),
  });
}

export type StrdRaw = Pick<StrdStatus, 'result' | 'series' | 'model' | 'specialOrder' | 'versions' | 'modeByte' | 'errorByte' | 'selfDiag' | 'rest'>;

export function encodeStrdData(s: StrdRaw): string {
  check(
    s.result.length === 2 && s.series.length === 2 && s.model.length === 2 && s.specialOrder.length === 4 && s.versions.every((v) => v.length === 4),
    'STRD text field of wrong width',
  );
  check(isInt(s.modeByte, 0, 255) && isInt(s.errorByte, 0, 255) && isInt(s.selfDiag, 0, 0xffff), 'STRD field out of range');
  return s.result + s.series + s.model + s.specialOrder + s.versions.join('') + hex(s.modeByte, 2) + hex(s.errorByte, 2) + hex(s.selfDiag, 4) + s.rest;
}

export type Mew7Reply = { kind: 'status'; status: StrdStatus } | { kind: 'words'; words: number[] };

/** The reply text after `$` for `req`. */
export function encodeMew7Reply(req: Mew7Request, reply: Mew7Reply): string {
  if (req.cmd === 'STRD') {
    check(reply.kind === 'status', 'STRD answers a status');
    return STRD + encodeStrdData(reply.status);
  }
  check(reply.kind === 'words' && reply.words.length === req.count && reply.words.every(isWord), `MMRD reply needs ${req.count} 16-bit word(s)`);
  return `00MMRD${wordsToHex(reply.words)}`;
}

export function decodeMew7Reply(req: Mew7Request, text: string): Result<Mew7Reply> {
  if (req.cmd === 'STRD') {
    if (!text.startsWith(STRD)) return fail('unexpected_reply', `reply "${text.slice(0, 8)}" to STRD`);
    const s = decodeStrdData(text.slice(STRD.length));
    return s.ok ? ok({ kind: 'status', status: s.value }) : s;
  }
  if (!text.startsWith('00MMRD')) return fail('unexpected_reply', `reply "${text.slice(0, 8)}" to MMRD`);
  const data = text.slice(6);
  if (data.length !== req.count * 4) return fail('bad_length', `MMRD reply has ${data.length} data chars, ${req.count * 4} expected`);
  const words = hexToWords(data);
  return words ? ok({ kind: 'words', words }) : fail('bad_data', 'reply data is not upper-case hex');
}
