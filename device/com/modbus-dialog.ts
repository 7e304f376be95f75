// Modbus exchanges as dialogs: RTU (unit + PDU + CRC) on serial lines, MBAP on TCP. An answer is
// this request's when it comes from the request's unit, with the request's transaction id (TCP),
// function code (an exception carries it too) and byte count or write echo (decodeModbusResponse);
// anything else is a stray, counted and dropped. An exception becomes a PlcError with its code. An
// RTU exception names only unit and function: while n answers of earlier requests of that function
// are owed, the first n exceptions are taken as theirs, late (rule LATE-2, docs/plc-links.md).
import {
  createRtuDecoder,
  createTcpDecoder,
  decodeModbusResponse,
  encodeModbusRequest,
  encodeRtuFrame,
  encodeTcpFrame,
  isModbusException,
  type ModbusRequest,
  type ModbusResponse,
  modbusExceptionInfo,
  modbusResponseShape,
} from '../protocol/index.ts';
import { AnswerSort, type Dialog, PlcError, RawLog, type Step, unreadable } from './dialog.ts';

export type ModbusFraming = { kind: 'rtu' } | { kind: 'tcp'; transaction: number };

/** Resync reads: FC3 of 1…32 registers from DT0 (RTU); on TCP one register under other transaction ids. */
const MODBUS_RESYNCS = 32;

export function modbusDialog(unit: number, req: ModbusRequest, framing: ModbusFraming): Dialog<ModbusResponse> {
  const pdu = encodeModbusRequest(req);
  const raw = new RawLog(false);
  const sort = new AnswerSort<ModbusResponse>();
  /** exceptions of this unit and function that may still be owed answers of earlier requests (RTU) */
  let lateExceptions = 0;
  /** one whole response frame */
  const heard = (from: number, res: Uint8Array) => {
    if (from !== unit) return sort.stray(); // another unit's answer (a shared RS485 line): not ours
    const r = decodeModbusResponse(res, req);
    if (!r.ok && r.error.code === 'mismatch') return sort.stray();
    if (r.ok && isModbusException(r.value) && lateExceptions > 0) {
      lateExceptions--;
      return sort.stray();
    }
    sort.own(() => {
      if (!r.ok) throw new PlcError('bad_reply', `Unexpected answer: ${r.error.message}`, undefined, raw.text());
      if (isModbusException(r.value)) {
        const code = r.value.exception;
        throw new PlcError('plc_error', `Modbus exception ${String(code).padStart(2, '0')}: ${modbusExceptionInfo(code).text}`, code, raw.text());
      }
      return r.value;
    });
  };
  const party = String(unit);
  if (framing.kind === 'rtu') {
    const decoder = createRtuDecoder('response');
    return {
      request: encodeRtuFrame(unit, pdu),
      raw: () => raw.text(),
      answerKey: { party, shape: modbusResponseShape(req), errors: `fc${req.fc}` },
      strays: () => sort.strays,
      resync: (n) => (n < MODBUS_RESYNCS ? modbusDialog(unit, { fc: 3, address: 0, quantity: n + 1 }, framing) : undefined),
      owedBefore: (n) => {
        lateExceptions = n;
      },
      feed(chunk): Step<ModbusResponse> {
        raw.add(chunk);
        for (const ev of decoder.push(chunk)) if (ev.type === 'frame') heard(ev.unit, ev.pdu);
        return sort.step(undefined);
      },
    };
  }
  const decoder = createTcpDecoder();
  const transaction = framing.transaction & 0xffff;
  return {
    request: encodeTcpFrame({ transaction, unit, pdu }),
    raw: () => raw.text(),
    answerKey: { party, shape: `t${transaction}` },
    strays: () => sort.strays,
    resync: (n) =>
      n < MODBUS_RESYNCS ? modbusDialog(unit, { fc: 3, address: 0, quantity: 1 }, { kind: 'tcp', transaction: transaction + 0x8000 + n }) : undefined,
    feed(chunk): Step<ModbusResponse> {
      raw.add(chunk);
      for (const ev of decoder.push(chunk)) {
        if (ev.type === 'error') sort.broken(() => unreadable(ev, raw.text()));
        else if (ev.transaction !== transaction) sort.stray();
        else heard(ev.unit, ev.pdu);
      }
      return sort.step(undefined);
    },
  };
}

/** spec of Modbus over serial line §2.4.1: after a broadcast the master waits a turnaround delay */
export const BROADCAST_TURNAROUND_MS = 100;

/** A write to every slave of an RTU line (unit 0): sent, executed by each, answered by none (what comes is a stray). */
export function modbusBroadcastDialog(pdu: Uint8Array): Dialog<undefined> {
  const decoder = createRtuDecoder('response');
  let strays = 0;
  return {
    request: encodeRtuFrame(0, pdu),
    raw: () => '',
    feed: (chunk) => {
      for (const ev of decoder.push(chunk)) if (ev.type === 'frame') strays++;
      return { done: false };
    },
    strays: () => strays,
    noAnswerMs: BROADCAST_TURNAROUND_MS,
  };
}
