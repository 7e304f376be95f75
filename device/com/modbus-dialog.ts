// Modbus exchanges as dialogs: RTU (unit + PDU + CRC) on serial lines, MBAP on TCP. The answer is
// checked against the request (function code, unit, transaction, echo); an exception becomes a
// PlcError with the exception code.
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
} from '../protocol/index.ts';
import { type Dialog, PlcError, RawLog, type Step } from './dialog.ts';

export type ModbusFraming = { kind: 'rtu' } | { kind: 'tcp'; transaction: number };

function answer(pdu: Uint8Array, req: ModbusRequest, raw: RawLog): ModbusResponse {
  const r = decodeModbusResponse(pdu, req);
  if (!r.ok) throw new PlcError('bad_reply', `Unexpected answer: ${r.error.message}`, undefined, raw.text());
  if (isModbusException(r.value)) {
    const code = r.value.exception;
    throw new PlcError('plc_error', `Modbus exception ${String(code).padStart(2, '0')}: ${modbusExceptionInfo(code).text}`, code, raw.text());
  }
  return r.value;
}

export function modbusDialog(unit: number, req: ModbusRequest, framing: ModbusFraming): Dialog<ModbusResponse> {
  const pdu = encodeModbusRequest(req);
  const raw = new RawLog(false);
  if (framing.kind === 'rtu') {
    const decoder = createRtuDecoder('response');
    return {
      request: encodeRtuFrame(unit, pdu),
      raw: () => raw.text(),
      feed(chunk): Step<ModbusResponse> {
        raw.add(chunk);
        for (const ev of decoder.push(chunk)) {
          // another unit's answer on a shared RS485 line is not ours: keep listening
          if (ev.type === 'frame' && ev.unit === unit) return { done: true, value: answer(ev.pdu, req, raw) };
        }
        return { done: false };
      },
    };
  }
  const decoder = createTcpDecoder();
  const transaction = framing.transaction & 0xffff;
  return {
    request: encodeTcpFrame({ transaction, unit, pdu }),
    raw: () => raw.text(),
    feed(chunk): Step<ModbusResponse> {
      raw.add(chunk);
      for (const ev of decoder.push(chunk)) {
        if (ev.type === 'error') throw new PlcError('bad_reply', `Unreadable answer: ${ev.message}`, undefined, raw.text());
        if (ev.transaction === transaction) return { done: true, value: answer(ev.pdu, req, raw) };
      }
      return { done: false };
    },
  };
}

/** spec of Modbus over serial line §2.4.1: after a broadcast the master waits a turnaround delay */
export const BROADCAST_TURNAROUND_MS = 100;

/** A write to every slave of an RTU line (unit 0): sent, executed by each, answered by none. */
export function modbusBroadcastDialog(pdu: Uint8Array): Dialog<undefined> {
  return { request: encodeRtuFrame(0, pdu), raw: () => '', feed: () => ({ done: false }), noAnswerMs: BROADCAST_TURNAROUND_MS };
}
