// One client of a redirect thread: the client-facing side of the protocol, as a PLC would speak it.
// Requests are handled one at a time per client, and every answer leaves in the order the requests
// came, refusals included (MEWTOCOL has no transaction id: a client matches answers by order; a
// Modbus client that pipelines expects the same). A command the thread allows goes to the PLC
// through the link of the thread's interface (a transaction of its own, fair with the link's other
// users); its answer, or the PLC's error code, goes back to this client only. Only whole frames
// count as activity (`touch`): bytes that never form one do not keep a client slot.
//
//   MEWTOCOL   frames and multi-frame handshakes (mewtocol.md §1.3) both ways; a refused command
//              gets `!65`, an unreadable one `!42`; a PLC that does not answer leaves the client
//              without answer, as the PLC itself would. The PLC gets a request built from the
//              checked one; its answer is checked in full, then goes on as it came when it is one
//              frame with the client's header and station, else is built anew for the client
//   Modbus/TCP MBAP framing; refused or unmapped addresses exception 02, PLC error 04, no answer
//              0B, interface not usable 0A (gateway path unavailable)

import { PlcError } from '../com/dialog.ts';
import type { Link } from '../com/link.ts';
import { mewForwardDialog } from '../com/mewtocol-dialog.ts';
import { modbusBroadcastDialog } from '../com/modbus-dialog.ts';
import { LinkError } from '../com/queue.ts';
import type { Restriction } from '../model/sections/redirect.ts';
import {
  createMewStreamDecoder,
  createTcpDecoder,
  decodeMewRequest,
  decodeModbusRequest,
  encodeModbusException,
  encodeModbusResponse,
  encodeTcpFrame,
  MEW_ERR,
  type MewHeader,
  type MewStation,
  MODBUS_EXCEPTION,
  type ModbusRequest,
  type ModbusResponse,
  mewErrorFrame,
  mewReplyFrames,
  modbusWriteEcho,
  parseStation,
} from '../protocol/index.ts';
import { checkMewCommand, type ThreadRules, UNREADABLE } from './mewtocol-filter.ts';
import { type PlcOp, resolveModbus } from './modbus-resolve.ts';
import { routeUnit } from './unit-route.ts';

export interface ThreadCounters {
  requests: number;
  refused: number;
  errors: number;
}

export interface SessionDeps {
  rules: ThreadRules;
  gateway: boolean;
  link(): Link | undefined;
  /** bytes, or a MEWTOCOL frame's text (latin1: each char one byte), written as it is */
  send(data: Uint8Array | string): void;
  /** the link user name of this client, e.g. `redirect:9094:3` */
  user: string;
  counters: ThreadCounters;
  /** a whole frame came: the client is active */
  touch(): void;
  /** a handler failed: the connection's guard contains it (connection-guard.ts) */
  fault(e: unknown): void;
  /** more than MAX_QUEUED requests waiting: the thread closes the connection */
  overflow(): void;
  /** a request refused by the thread itself (restriction, unreadable, unit not served), with the code the client gets */
  noteRefusal?(code: number): void;
}

export interface Session {
  receive(bytes: Uint8Array): void;
  /** Resolves once every request received so far has been answered (or given up). */
  settled(): Promise<void>;
  /** The client is gone: requests still queued are dropped, not sent to the PLC. */
  close(): void;
}

/** requests one client may have waiting; more closes the connection (a client flooding the queue) */
export const MAX_QUEUED = 256;

/**
 * One job after the other; a job that throws (or rejects) is a fault of the connection, the next
 * ones still run. A job queued while nothing runs starts at once, in the caller's turn: an answer
 * or a forwarded request leaves without waiting for a promise chain.
 */
function serial(fault: (e: unknown) => void, overflow: () => void) {
  const jobs: (() => void | Promise<void>)[] = [];
  let running = false;
  let closed = false;
  let waiters: (() => void)[] = [];
  const drain = (): void => {
    running = true;
    while (jobs.length && !closed) {
      let r: void | Promise<void>;
      try {
        r = jobs.shift()!();
      } catch (e) {
        fault(e);
        continue;
      }
      if (r) {
        r.then(drain, (e: unknown) => {
          fault(e);
          drain();
        });
        return;
      }
    }
    jobs.length = 0;
    running = false;
    const done = waiters;
    waiters = [];
    for (const w of done) w();
  };
  return {
    enqueue(job: () => void | Promise<void>): void {
      if (closed) return;
      if (jobs.length + (running ? 1 : 0) >= MAX_QUEUED) {
        closed = true;
        jobs.length = 0;
        overflow();
        return;
      }
      jobs.push(job);
      if (!running) drain();
    },
    settled: (): Promise<void> => (running ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve()),
    close(): void {
      closed = true;
    },
  };
}

export function mewtocolSession(d: SessionDeps): Session {
  const decoder = createMewStreamDecoder();
  const queue = serial(d.fault, d.overflow);
  let pending: string[] = [];
  // every answer goes through the queue, so that it leaves after the answers to earlier requests
  const out = (frame: string) => queue.enqueue(() => d.send(frame));
  const refuse = (header: MewHeader, station: MewStation, code: number) => {
    d.counters.refused++;
    d.noteRefusal?.(code);
    out(mewErrorFrame(header, station, code));
  };
  return {
    settled: () => queue.settled(),
    close: () => queue.close(),
    receive(bytes) {
      for (const ev of decoder.push(bytes)) {
        if (ev.type === 'error') {
          d.counters.errors++;
          if (ev.mewCode !== undefined && ev.header && ev.station !== undefined) out(mewErrorFrame(ev.header, ev.station, ev.mewCode));
          continue;
        }
        d.touch();
        if (ev.type === 'continue') out(ev.reply);
        // a frame request with no long answer pending is a procedure error (!43), as the PLC answers it
        else if (ev.type === 'next') queue.enqueue(() => d.send(pending.shift() ?? mewErrorFrame(ev.header, ev.station, MEW_ERR.PROCEDURE)));
        else if (ev.message.kind === 'command') {
          const { header, station, text } = ev.message;
          d.counters.requests++;
          const req = decodeMewRequest(text);
          if (!req.ok) {
            refuse(header, station, req.error.mewCode ?? UNREADABLE);
            continue;
          }
          const verdict = checkMewCommand(req.value, d.rules);
          if (verdict !== undefined) {
            refuse(header, station, verdict);
            continue;
          }
          const r = req.value;
          queue.enqueue(() => {
            const link = d.link();
            if (!link) {
              d.counters.errors++;
              return;
            }
            // callbacks, not await: the answer leaves in the turn the PLC's answer arrived
            return new Promise<void>((done) =>
              link.exchangeDialogNow(
                () => mewForwardDialog(station, r, header),
                !r.cmd.startsWith('W'),
                d.user,
                station === 'EE' ? 0 : station,
                ({ reply, frame }) => {
                  try {
                    if (frame !== undefined && frame[0] === header && parseStation(frame.slice(1, 3)) === station) {
                      // one checked frame with the client's header and station: it goes on as it came
                      pending = [];
                      d.send(`${frame}\r`);
                    } else {
                      pending = mewReplyFrames(header, station, r, reply as never);
                      d.send(pending.shift()!);
                    }
                  } catch (e) {
                    d.fault(e); // a bug, not the PLC
                  }
                  done();
                },
                (e) => {
                  d.counters.errors++;
                  try {
                    if (e.reason === 'plc_error' && e.code !== undefined) d.send(mewErrorFrame(header, station, e.code));
                  } catch (err) {
                    d.fault(err);
                  }
                  done();
                },
              ),
            );
          });
        }
      }
    },
  };
}

async function runOps(link: Link, ops: PlcOp[], user: string, station: number): Promise<(number | boolean)[]> {
  const values: (number | boolean)[] = [];
  for (const o of ops) {
    if (o.kind === 'words') {
      if (o.op === 'read') values.push(...(await link.readWords(o.area, o.start, o.count, user, station)));
      else await link.writeWords(o.area, o.start, o.values!, user, station);
    } else if (o.op === 'read') values.push(...(await link.readBits(o.area, o.index, o.count, user, station)));
    else await link.writeBits(o.area, o.index, o.values!, user, station);
  }
  return values;
}

const WRITES = new Set([5, 6, 15, 16]);

function responseOf(req: ModbusRequest, values: (number | boolean)[]): ModbusResponse {
  if (req.fc === 1 || req.fc === 2) return { fc: req.fc, bits: values as boolean[] };
  if (req.fc === 3 || req.fc === 4) return { fc: req.fc, registers: values as number[] };
  return modbusWriteEcho(req)!;
}

const exceptionOf = (e: unknown): number => {
  if (e instanceof PlcError) {
    if (e.reason === 'plc_error') return MODBUS_EXCEPTION.SERVER_DEVICE_FAILURE;
    if (e.reason === 'link_down') return MODBUS_EXCEPTION.GATEWAY_PATH_UNAVAILABLE;
  }
  return MODBUS_EXCEPTION.GATEWAY_TARGET_FAILED;
};

export function modbusSession(d: SessionDeps & { onFatal(): void }): Session {
  const decoder = createTcpDecoder();
  const queue = serial(d.fault, d.overflow);
  /** counts a refusal by the thread; the exception the client gets */
  const refused = (code: number): number => {
    d.counters.refused++;
    d.noteRefusal?.(code);
    return code;
  };
  return {
    settled: () => queue.settled(),
    close: () => queue.close(),
    receive(bytes) {
      for (const ev of decoder.push(bytes)) {
        if (ev.type === 'error') {
          d.counters.errors++;
          d.onFatal();
          return;
        }
        d.touch();
        const { transaction, unit, pdu } = ev;
        const answer = (res: Uint8Array) => d.send(encodeTcpFrame({ transaction, unit, pdu: res }));
        d.counters.requests++;
        const req = decodeModbusRequest(pdu);
        if (!req.ok) {
          const res = encodeModbusException(req.error.fc ?? pdu[0] ?? 0, refused(req.error.exception ?? MODBUS_EXCEPTION.ILLEGAL_FUNCTION));
          queue.enqueue(() => answer(res));
          continue;
        }
        const r = req.value;
        const ops = resolveModbus(r, d.rules.mapping as Restriction[], d.gateway);
        if (typeof ops === 'number') {
          queue.enqueue(() => answer(encodeModbusException(r.fc, refused(ops))));
          continue;
        }
        const link = d.link();
        const route = link ? routeUnit(unit, link.cfg, d.gateway) : undefined;
        if (route?.kind === 'refuse') {
          queue.enqueue(() => answer(encodeModbusException(r.fc, refused(route.exception))));
          continue;
        }
        if (route?.kind === 'broadcast') {
          // unit 0: every slave executes a write, none answers; a read cannot be broadcast
          if (!WRITES.has(r.fc)) {
            refused(MODBUS_EXCEPTION.ILLEGAL_FUNCTION); // no answer: nobody answers a broadcast
            continue;
          }
          queue.enqueue(async () => {
            try {
              await link!.exchangeDialog(() => modbusBroadcastDialog(pdu), false, d.user, -1);
            } catch (e) {
              d.counters.errors++;
              if (!(e instanceof PlcError || e instanceof LinkError)) throw e;
            }
          });
          continue;
        }
        const station = route?.station ?? 0;
        queue.enqueue(async () => {
          let res: Uint8Array;
          try {
            const now = d.link(); // the link of when the request's turn comes (a save may have replaced it)
            if (!now) throw new PlcError('link_down', 'interface not enabled');
            res = encodeModbusResponse(responseOf(r, await runOps(now, ops, d.user, station)));
          } catch (e) {
            d.counters.errors++;
            res = encodeModbusException(r.fc, exceptionOf(e));
          }
          answer(res);
        });
      }
    },
  };
}
