// One request/reply exchange as frames: what a COM link sends for a typed request and what a
// simulated PLC sends back. Messages longer than one frame become `&`-chained frames (§1.3); send
// the first, then each next one when the peer's next-frame request arrives (stream event `next`).
import { encodeMewRequest, type MewRequest } from './mewtocol-commands.ts';
import { encodeMewMessage, type MessageOptions, type MewHeader, type MewStation } from './mewtocol-frame.ts';
import { encodeMewReply, type MewReplyFor } from './mewtocol-replies.ts';

export interface ExchangeOptions extends MessageOptions {
  /** `%` (default, 118-char frames) or `<` (2048). */
  header?: MewHeader;
}

/** The command frames for a request, e.g. station 1 + RT → ["%01#RT01\r"]. */
export function mewCommandFrames(station: MewStation, req: MewRequest, opts: ExchangeOptions = {}): string[] {
  return encodeMewMessage({ kind: 'command', header: opts.header ?? '%', station, text: encodeMewRequest(req) }, opts);
}

/** The reply frames a PLC at `station` sends for `req` (header as in the command). */
export function mewReplyFrames<Q extends MewRequest>(
  header: MewHeader,
  station: MewStation,
  req: Q,
  reply: MewReplyFor<Q>,
  opts: MessageOptions = {},
): string[] {
  return encodeMewMessage({ kind: 'response', header, station, text: encodeMewReply(req, reply) }, opts);
}

/** The error reply `!nn` of a PLC at `station`. */
export function mewErrorFrame(header: MewHeader, station: MewStation, code: number, opts: MessageOptions = {}): string {
  return encodeMewMessage({ kind: 'error', header, station, code }, opts)[0] as string;
}
