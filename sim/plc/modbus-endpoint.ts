// The Modbus half of a PLC endpoint (endpoint.ts): RTU frames on a serial line, MBAP frames on TCP.
import {
  createRtuDecoder,
  createTcpDecoder,
  encodeModbusException,
  encodeRtuFrame,
  encodeTcpFrame,
  type RtuEvent,
  type TcpEvent,
} from '../../device/protocol/index.ts';
import type { Timers } from '../wire.ts';
import type { Answer, EndpointParts } from './endpoint.ts';
import { answerModbus } from './modbus-responder.ts';
import type { Fault, VirtualPlc } from './virtual-plc.ts';

const WRITE_FUNCTIONS = new Set([5, 6, 15, 16]);
/** 3.5 characters at 9600 bit/s, when the line's speed is not given */
const DEFAULT_GAP_MS = 4;

/** The response PDU to a request PDU, or the exception an `error` fault asks for. */
const modbusPdu = (plc: VirtualPlc, fault: Fault, pdu: Uint8Array) =>
  fault.kind === 'error' ? encodeModbusException(pdu[0] ?? 0, fault.code) : answerModbus(plc.memory, pdu);

export function rtuParts(plc: VirtualPlc, answer: Answer, timers: Timers, gapMs?: () => number): EndpointParts {
  const decoder = createRtuDecoder('request', { waitForGap: true });
  let gapTimer: unknown;
  const onEvent = (e: RtuEvent) => {
    if (e.type !== 'frame') return; // a CRC error or noise is not heard
    if (e.unit === 0) {
      plc.request(false);
      if (WRITE_FUNCTIONS.has(e.pdu[0] ?? 0)) answerModbus(plc.memory, e.pdu);
      return;
    }
    if (e.unit !== plc.station) return;
    const fault = plc.request();
    if (fault.kind === 'silent') return;
    answer(fault, encodeRtuFrame(plc.station, modbusPdu(plc, fault, e.pdu)), 'rtu');
  };
  const stopGap = () => {
    if (gapTimer !== undefined) timers.clearTimeout(gapTimer);
    gapTimer = undefined;
  };
  return {
    receive(bytes) {
      decoder.push(bytes).forEach(onEvent);
      stopGap();
      if (decoder.buffered() > 0)
        gapTimer = timers.setTimeout(() => {
          gapTimer = undefined;
          decoder.gap().forEach(onEvent);
        }, gapMs?.() ?? DEFAULT_GAP_MS);
    },
    reset() {
      stopGap();
      decoder.reset();
    },
  };
}

export function tcpParts(plc: VirtualPlc, answer: Answer, close?: () => void): EndpointParts {
  const decoder = createTcpDecoder();
  const onEvent = (e: TcpEvent) => {
    if (e.type === 'error') return close?.();
    const fault = plc.request();
    if (fault.kind === 'silent') return;
    answer(fault, encodeTcpFrame({ transaction: e.transaction, unit: e.unit, pdu: modbusPdu(plc, fault, e.pdu) }), 'tcp');
  };
  return {
    receive: (bytes) => decoder.push(bytes).forEach(onEvent),
    reset: () => decoder.reset(),
  };
}
