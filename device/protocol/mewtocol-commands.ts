// MEWTOCOL-COM command texts (the part after `#`), both ways: a COM link encodes requests, a
// simulated PLC decodes them and answers with the error code a PLC would (mewtocol.md §2, §3).
//
//   encodeMewRequest(req)   typed request -> text, e.g. { cmd: 'RD', area: 'DT', start: 1105, count: 3 } -> "RDD0110501107"
//   decodeMewRequest(text)  text -> typed request, or an error carrying `mewCode`
//                           (42 unknown command, 41 format, 60 bad area / out of range, 61 bad digits or start > end)
//
// Field widths (§2.1): contacts X/Y/R/L = 3 decimal word digits + 1 hex bit digit (`X001A`),
// T/C = 4 decimal digits; RCC/WCC word number 4 digits; RD/WD address 5 digits; RS/RK 4 digits.
// Reads carry start and end on the wire; the API uses start and count. Writes go to Y, R, L only
// (§2: WCS areas Y R L; WCP and WCC are taken to follow WCS — a PLC overwrites inputs X anyway).
import { dec, hex, hexToWords, isWord, parseDec, parseHex, wordsToHex } from './ascii.ts';
import { MEW_ERR } from './mewtocol-errors.ts';
import { check, fail, isInt, ok, type ProtocolError, type Result } from './result.ts';

export type RelayArea = 'X' | 'Y' | 'R' | 'L';
export type WritableRelayArea = 'Y' | 'R' | 'L';
export type TimerArea = 'T' | 'C';
/** A contact: a relay bit (word 0–999, bit 0–15) or a timer/counter contact (0–9999). */
export type ContactRef = { area: RelayArea; word: number; bit: number } | { area: TimerArea; index: number };
export type WritableContact = { area: WritableRelayArea; word: number; bit: number };
/** Word view of the relay areas for RCC/WCC (§2.1: WR9 → `RCCR00090009`). */
export type ContactWordArea = 'WX' | 'WY' | 'WR' | 'WL';
export type WritableContactWordArea = 'WY' | 'WR' | 'WL';
/** Data areas of RD/WD: DT (code D), LD (L), FL (F). */
export type DataArea = 'DT' | 'LD' | 'FL';

export type MewRequest =
  | { cmd: 'RCS'; contact: ContactRef }
  | { cmd: 'WCS'; contact: WritableContact; value: boolean }
  | { cmd: 'RCP'; contacts: ContactRef[] }
  | { cmd: 'WCP'; contacts: { contact: WritableContact; value: boolean }[] }
  | { cmd: 'RCC'; area: ContactWordArea; start: number; count: number }
  | { cmd: 'WCC'; area: WritableContactWordArea; start: number; words: number[] }
  | { cmd: 'RD'; area: DataArea; start: number; count: number }
  | { cmd: 'WD'; area: DataArea; start: number; words: number[] }
  | { cmd: 'RS' | 'RK'; start: number; count: number } // timer/counter set value (SV) / elapsed value (EV)
  | { cmd: 'WS' | 'WK'; start: number; words: number[] }
  | { cmd: 'RT' } // PLC status (§4.1)
  | { cmd: 'EXRT' }; // extended status `EX00RT00` (§4.4, [1src]; FP7 answers !42)

export type MewCommandName = MewRequest['cmd'];

/** Largest address per field width (§2.1). */
export const MEW_ADDRESS_MAX = { relayWord: 999, timer: 9999, contactWord: 9999, data: 99999, timerValue: 9999 } as const;
/** RCP/WCP carry 1–8 contacts (§2, [impl]). */
export const MEW_MAX_CONTACTS = 8;

const DATA_CODE: Record<DataArea, string> = { DT: 'D', LD: 'L', FL: 'F' };
const DATA_AREA: Record<string, DataArea> = { D: 'DT', L: 'LD', F: 'FL' };
const WORD_AREA: Record<string, ContactWordArea> = { X: 'WX', Y: 'WY', R: 'WR', L: 'WL' };

/** A request decode failure with the MEWTOCOL error code a PLC answers to it. */
export interface MewRequestError extends ProtocolError {
  mewCode: number;
}

type R<T> = Result<T, MewRequestError>;
const format = (m: string) => fail<MewRequestError>('format', m, { mewCode: MEW_ERR.FORMAT });
const param = (m: string) => fail<MewRequestError>('parameter', m, { mewCode: MEW_ERR.PARAMETER });
const data = (m: string) => fail<MewRequestError>('data', m, { mewCode: MEW_ERR.DATA });

// ---- encoding ----

function contactField(c: ContactRef): string {
  if ('index' in c) {
    check(isInt(c.index, 0, MEW_ADDRESS_MAX.timer), `${c.area}${c.index}: index not in 0-9999`);
    return c.area + dec(c.index, 4);
  }
  check(isInt(c.word, 0, MEW_ADDRESS_MAX.relayWord) && isInt(c.bit, 0, 15), `${c.area} word ${c.word} bit ${c.bit} not addressable (word 0-999, bit 0-15)`);
  return c.area + dec(c.word, 3) + hex(c.bit, 1);
}

function range(start: number, count: number, max: number, width: number): string {
  check(isInt(count, 1, max + 1) && isInt(start, 0, max - count + 1), `range ${start}+${count} not inside 0-${max}`);
  return dec(start, width) + dec(start + count - 1, width);
}

function wordData(words: readonly number[]): string {
  check(words.length > 0 && words.every(isWord), 'write data must be 1 or more 16-bit words');
  return wordsToHex(words);
}

function contacts<T>(list: readonly T[]): string {
  check(list.length >= 1 && list.length <= MEW_MAX_CONTACTS, `${list.length} contacts, 1-8 allowed`);
  return String(list.length);
}

/** The command text after `#`. Throws RangeError on values the frame cannot carry. */
export function encodeMewRequest(req: MewRequest): string {
  switch (req.cmd) {
    case 'RCS':
      return `RCS${contactField(req.contact)}`;
    case 'WCS':
      return `WCS${contactField(req.contact)}${req.value ? '1' : '0'}`;
    case 'RCP':
      return `RCP${contacts(req.contacts)}${req.contacts.map(contactField).join('')}`;
    case 'WCP':
      return `WCP${contacts(req.contacts)}${req.contacts.map((c) => contactField(c.contact) + (c.value ? '1' : '0')).join('')}`;
    case 'RCC':
      return `RCC${req.area[1]}${range(req.start, req.count, MEW_ADDRESS_MAX.contactWord, 4)}`;
    case 'WCC':
      return `WCC${req.area[1]}${range(req.start, req.words.length, MEW_ADDRESS_MAX.contactWord, 4)}${wordData(req.words)}`;
    case 'RD':
      return `RD${DATA_CODE[req.area]}${range(req.start, req.count, MEW_ADDRESS_MAX.data, 5)}`;
    case 'WD':
      return `WD${DATA_CODE[req.area]}${range(req.start, req.words.length, MEW_ADDRESS_MAX.data, 5)}${wordData(req.words)}`;
    case 'RS':
    case 'RK':
      return req.cmd + range(req.start, req.count, MEW_ADDRESS_MAX.timerValue, 4);
    case 'WS':
    case 'WK':
      return req.cmd + range(req.start, req.words.length, MEW_ADDRESS_MAX.timerValue, 4) + wordData(req.words);
    case 'RT':
      return 'RT';
    case 'EXRT':
      return 'EX00RT00';
  }
}

// ---- decoding (simulator side) ----

function parseContact(s: string, writable: boolean): R<ContactRef> {
  const area = s[0];
  if (area === 'T' || area === 'C') {
    if (writable) return param(`contact area ${area} cannot be written`);
    const index = parseDec(s.slice(1, 5));
    return index === undefined ? data(`bad contact number "${s.slice(1, 5)}"`) : ok({ area, index });
  }
  if (area !== 'X' && area !== 'Y' && area !== 'R' && area !== 'L') return param(`bad contact area "${area ?? ''}"`);
  if (writable && area === 'X') return param('input contacts X cannot be written');
  const word = parseDec(s.slice(1, 4));
  const bit = parseHex(s.slice(4, 5));
  return word === undefined || bit === undefined ? data(`bad contact address "${s.slice(1, 5)}"`) : ok({ area, word, bit });
}

function parseRange(s: string, width: number): R<{ start: number; count: number }> {
  const start = parseDec(s.slice(0, width));
  const end = parseDec(s.slice(width, 2 * width));
  if (start === undefined || end === undefined) return data(`bad address digits "${s.slice(0, 2 * width)}"`);
  if (start > end) return data(`start ${start} after end ${end}`);
  return ok({ start, count: end - start + 1 });
}

function parseWords(s: string, count: number): R<number[]> {
  if (s.length !== count * 4) return format(`${count} word(s) need ${count * 4} data chars, got ${s.length}`);
  const words = hexToWords(s);
  return words ? ok(words) : data('write data is not upper-case hex');
}

const bitValue = (c: string | undefined): boolean | undefined => (c === '1' ? true : c === '0' ? false : undefined);

function decodeContacts(body: string, write: boolean): R<MewRequest> {
  const n = parseDec(body.slice(0, 1));
  if (n === undefined || n < 1 || n > MEW_MAX_CONTACTS) return data(`bad contact count "${body.slice(0, 1)}"`);
  const size = write ? 6 : 5;
  if (body.length !== 1 + n * size) return format(`${n} contact(s) need ${1 + n * size} chars`);
  const refs: ContactRef[] = [];
  const values: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const field = body.slice(1 + i * size, 1 + (i + 1) * size);
    const c = parseContact(field, write);
    if (!c.ok) return c;
    refs.push(c.value);
    if (write) {
      const v = bitValue(field[5]);
      if (v === undefined) return data(`bad contact value "${field[5]}"`);
      values.push(v);
    }
  }
  if (!write) return ok({ cmd: 'RCP', contacts: refs });
  return ok({ cmd: 'WCP', contacts: refs.map((contact, i) => ({ contact: contact as WritableContact, value: values[i] as boolean })) });
}

function decodeSingle(body: string, write: boolean): R<MewRequest> {
  if (body.length !== (write ? 6 : 5)) return format(`single contact needs area + 4 address chars${write ? ' + value' : ''}`);
  const c = parseContact(body, write);
  if (!c.ok) return c;
  if (!write) return ok({ cmd: 'RCS', contact: c.value });
  const value = bitValue(body[5]);
  return value === undefined ? data(`bad contact value "${body[5]}"`) : ok({ cmd: 'WCS', contact: c.value as WritableContact, value });
}

function decodeWordCmd(cmd: 'RCC' | 'WCC', body: string): R<MewRequest> {
  const area = WORD_AREA[body[0] ?? ''];
  if (!area || (cmd === 'WCC' && area === 'WX')) return param(`bad contact word area "${body[0] ?? ''}"`);
  if (body.length < 9) return format('contact words need area + start(4) + end(4)');
  const r = parseRange(body.slice(1), 4);
  if (!r.ok) return r;
  if (cmd === 'RCC') return body.length === 9 ? ok({ cmd, area, ...r.value }) : format('RCC takes no data');
  const w = parseWords(body.slice(9), r.value.count);
  return w.ok ? ok({ cmd, area: area as WritableContactWordArea, start: r.value.start, words: w.value }) : w;
}

function decodeDataCmd(cmd: 'RD' | 'WD', body: string): R<MewRequest> {
  const area = DATA_AREA[body[0] ?? ''];
  if (!area) return param(`bad data area code "${body[0] ?? ''}"`);
  if (body.length < 11) return format('data area needs code + start(5) + end(5)');
  const r = parseRange(body.slice(1), 5);
  if (!r.ok) return r;
  if (cmd === 'RD') return body.length === 11 ? ok({ cmd, area, ...r.value }) : format('RD takes no data');
  const w = parseWords(body.slice(11), r.value.count);
  return w.ok ? ok({ cmd, area, start: r.value.start, words: w.value }) : w;
}

function decodeTimerCmd(cmd: 'RS' | 'RK' | 'WS' | 'WK', body: string): R<MewRequest> {
  if (body.length < 8) return format('timer values need start(4) + end(4)');
  const r = parseRange(body, 4);
  if (!r.ok) return r;
  if (cmd === 'RS' || cmd === 'RK') return body.length === 8 ? ok({ cmd, ...r.value }) : format(`${cmd} takes no data`);
  const w = parseWords(body.slice(8), r.value.count);
  return w.ok ? ok({ cmd, start: r.value.start, words: w.value }) : w;
}

/** Parses the command text after `#`; never throws. */
export function decodeMewRequest(text: string): R<MewRequest> {
  const three = text.slice(0, 3);
  const body3 = text.slice(3);
  switch (three) {
    case 'RCS':
      return decodeSingle(body3, false);
    case 'WCS':
      return decodeSingle(body3, true);
    case 'RCP':
      return decodeContacts(body3, false);
    case 'WCP':
      return decodeContacts(body3, true);
    case 'RCC':
    case 'WCC':
      return decodeWordCmd(three, body3);
  }
  const two = text.slice(0, 2);
  const body = text.slice(2);
  switch (two) {
    case 'RD':
    case 'WD':
      return decodeDataCmd(two, body);
    case 'RS':
    case 'RK':
    case 'WS':
    case 'WK':
      return decodeTimerCmd(two, body);
    case 'RT':
      return body === '' ? ok({ cmd: 'RT' }) : format('RT takes no parameters');
  }
  if (text === 'EX00RT00') return ok({ cmd: 'EXRT' });
  return fail<MewRequestError>('not_supported', `command "${text.slice(0, 3)}" not supported`, { mewCode: MEW_ERR.NOT_SUPPORTED });
}
