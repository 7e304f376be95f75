// MEWTOCOL-COM reply texts (the part after `$`), both ways. A reply starts with a 2-char code
// (§1.2): RCS/RCP/RCC answer `RC`, WCS/WCP/WCC answer `WC` ([impl]), the others their own name;
// EXRT answers `EX00RT00`. Reading one needs the request (how many words or contacts to expect).
//
//   encodeMewReply(req, reply)      simulator: the text after `$`
//   decodeMewReply(req, text)       link: typed reply, checked against the request
//   mewReplyFromMessage(req, msg)   link: a decoded stream message -> typed reply, or the PLC's
//                                   `!nn` error as { code: 'plc_error', mewCode, key }
//   mewReplyShape(req)              link: what the reply looks like (code and data length), the
//                                   same for requests whose replies cannot be told apart
import { hexToWords, isWord, wordsToHex } from './ascii.ts';
import type { MewRequest } from './mewtocol-commands.ts';
import { mewErrorInfo } from './mewtocol-errors.ts';
import type { MewMessage } from './mewtocol-frame.ts';
import { decodeExrtData, decodeRtData, type ExrtStatus, encodeExrtData, encodeRtData, type RtStatus } from './mewtocol-status.ts';
import { check, fail, ok, type ProtocolError, type Result } from './result.ts';

export type BitsReply = { kind: 'bits'; values: boolean[] };
export type WordsReply = { kind: 'words'; words: number[] };
export type AckReply = { kind: 'ack' };
export type StatusReply = { kind: 'status'; status: RtStatus };
export type ExStatusReply = { kind: 'exstatus'; status: ExrtStatus };

interface ReplyMap {
  RCS: BitsReply;
  RCP: BitsReply;
  RCC: WordsReply;
  RD: WordsReply;
  RS: WordsReply;
  RK: WordsReply;
  WCS: AckReply;
  WCP: AckReply;
  WCC: AckReply;
  WD: AckReply;
  WS: AckReply;
  WK: AckReply;
  RT: StatusReply;
  EXRT: ExStatusReply;
}
/** The reply type that belongs to a request type. */
export type MewReplyFor<Q extends MewRequest> = ReplyMap[Q['cmd']];
export type MewReply = ReplyMap[keyof ReplyMap];

/** The 2-char code (or `EX00RT00`) a reply to this request starts with. */
export function mewReplyCode(req: MewRequest): string {
  if (req.cmd === 'EXRT') return 'EX00RT00';
  return req.cmd.startsWith('RC') ? 'RC' : req.cmd.startsWith('WC') ? 'WC' : req.cmd;
}

/** How many words or contacts the reply to a read carries (0 for writes and status). */
export function mewReplyCount(req: MewRequest): number {
  switch (req.cmd) {
    case 'RCS':
      return 1;
    case 'RCP':
      return req.contacts.length;
    case 'RCC':
    case 'RD':
    case 'RS':
    case 'RK':
      return req.count;
    default:
      return 0;
  }
}

/**
 * What the reply to `req` looks like after `$`: its code and, for reads, its data length (`RD:4`,
 * `RC:3`, `WD`). A reply names no address, so two requests of the same shape (two one-word reads of
 * DT) get replies that no check can tell apart; requests of different shapes never do.
 */
export function mewReplyShape(req: MewRequest): string {
  switch (req.cmd) {
    case 'RCS':
    case 'RCP':
      return `RC:${mewReplyCount(req)}`;
    case 'RCC':
    case 'RD':
    case 'RS':
    case 'RK':
      return `${mewReplyCode(req)}:${4 * req.count}`;
    default:
      return mewReplyCode(req);
  }
}

/** The reply text after `$`. Throws RangeError when the reply does not fit the request. */
export function encodeMewReply<Q extends MewRequest>(req: Q, reply: MewReplyFor<Q>): string {
  const code = mewReplyCode(req);
  const r = reply as MewReply;
  switch (r.kind) {
    case 'bits':
      check(r.values.length === mewReplyCount(req), `${req.cmd} reply needs ${mewReplyCount(req)} contact value(s)`);
      return code + r.values.map((b) => (b ? '1' : '0')).join('');
    case 'words':
      check(r.words.length === mewReplyCount(req) && r.words.every(isWord), `${req.cmd} reply needs ${mewReplyCount(req)} 16-bit word(s)`);
      return code + wordsToHex(r.words);
    case 'ack':
      return code;
    case 'status':
      return code + encodeRtData(r.status);
    case 'exstatus':
      return code + encodeExrtData(r.status);
  }
}

/** Parses the reply text after `$` for this request; never throws. */
export function decodeMewReply<Q extends MewRequest>(req: Q, text: string): Result<MewReplyFor<Q>> {
  return decodeAny(req, text) as Result<MewReplyFor<Q>>;
}

function decodeAny(req: MewRequest, text: string): Result<MewReply> {
  const code = mewReplyCode(req);
  if (!text.startsWith(code)) return fail('unexpected_reply', `reply "${text.slice(0, 8)}" to ${req.cmd}, expected ${code}`);
  const data = text.slice(code.length);
  const n = mewReplyCount(req);
  switch (req.cmd) {
    case 'RCS':
    case 'RCP':
      if (!new RegExp(`^[01]{${n}}$`).test(data)) return fail('bad_length', `${req.cmd} reply needs ${n} contact value(s) 0/1`);
      return ok({ kind: 'bits', values: [...data].map((c) => c === '1') });
    case 'RCC':
    case 'RD':
    case 'RS':
    case 'RK': {
      if (data.length !== n * 4) return fail('bad_length', `${req.cmd} reply has ${data.length} data chars, ${n * 4} expected`);
      const words = hexToWords(data);
      return words ? ok({ kind: 'words', words }) : fail('bad_data', 'reply data is not upper-case hex');
    }
    case 'RT': {
      const s = decodeRtData(data);
      return s.ok ? ok({ kind: 'status', status: s.value }) : s;
    }
    case 'EXRT': {
      const s = decodeExrtData(data);
      return s.ok ? ok({ kind: 'exstatus', status: s.value }) : s;
    }
    default:
      return data === '' ? ok({ kind: 'ack' }) : fail('bad_length', `${req.cmd} reply carries unexpected data`);
  }
}

/** A PLC error reply (`!nn`) as a decode failure. */
export interface MewPlcError extends ProtocolError {
  mewCode?: number;
  key?: string;
}

/** Turns a message from the stream decoder into the typed reply to `req`. */
export function mewReplyFromMessage<Q extends MewRequest>(req: Q, msg: MewMessage): Result<MewReplyFor<Q>, MewPlcError> {
  if (msg.kind === 'error') {
    const e = mewErrorInfo(msg.code);
    return fail<MewPlcError>('plc_error', `PLC error ${String(msg.code).padStart(2, '0')}: ${e.text}`, { mewCode: msg.code, key: e.key });
  }
  if (msg.kind !== 'response') return fail<MewPlcError>('unexpected_reply', 'a command arrived where a reply was expected');
  return decodeMewReply(req, msg.text);
}
