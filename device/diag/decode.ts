// What a captured frame means (docs/monitor.md), worked out when a browser reads the capture, never
// while the frame passes: the command, station or unit, area and range, the values (the first
// VALUES_SHOWN), the error code with its table key (MEWTOCOL `!nn`, Modbus exception) that the
// console words in the user's language, why a frame is unreadable, and for IEC 104 the APCI with
// the ASDU's type, cause, common address and objects. An answer is decoded against the request it
// answers (the capture pairs them), so a read's answer shows its values.

import type { CaptureProtocol } from '../model/monitor.ts';
import { decodeApdu, decodeAsdu, decodeHeader, typeInfo } from '../protocol/iec104/index.ts';
import {
  decodeMew7Frame,
  decodeMew7Reply,
  decodeMew7Request,
  decodeMewFrame,
  decodeMewReply,
  decodeMewRequest,
  decodeModbusRequest,
  decodeModbusResponse,
  decodeRtuFrame,
  decodeTcpFrame,
  isModbusException,
  type MewRequest,
  type ModbusRequest,
  mewErrorInfo,
  modbusExceptionInfo,
} from '../protocol/index.ts';

export const VALUES_SHOWN = 16;

export interface DecodedFrame {
  /** request, answer, an error answer, a frame that cannot be read, the next part of a multi-frame message, an IEC 104 APCI */
  what: 'request' | 'answer' | 'error' | 'unreadable' | 'continued' | 'iec';
  /** RD, WD, RCS … (MEWTOCOL), STRD, MMRD (MEWTOCOL7), FC3 … (Modbus); I, S, U (IEC 104) */
  command?: string;
  /** MEWTOCOL station (`EE` all), Modbus unit, IEC 104 common address */
  station?: string;
  area?: string;
  start?: number;
  count?: number;
  values?: number[];
  /** values not shown */
  more?: number;
  error?: { table: 'mewtocol' | 'modbus'; code: number; key: string };
  /** why it cannot be read: the decoder's code (bcc, crc, format, bad_station, …) */
  problem?: string;
  /** Modbus/TCP transaction id, MEWTOCOL7 frame number */
  id?: number;
  iec?: {
    /** U: startdt_act …; I: N(S), N(R); S: N(R) */
    u?: string;
    ns?: number;
    nr?: number;
    /** the ASDU: type name and id, cause of transmission, negative/test flags, objects and their first addresses */
    type?: string;
    typeId?: number;
    cot?: number;
    negative?: boolean;
    test?: boolean;
    objects?: number;
    ioas?: number[];
  };
}

const bytes = (data: string): Uint8Array => Uint8Array.from(data, (c) => c.charCodeAt(0));

const shown = (values: readonly (number | boolean)[]): Pick<DecodedFrame, 'values' | 'more'> => ({
  values: values.slice(0, VALUES_SHOWN).map(Number),
  ...(values.length > VALUES_SHOWN ? { more: values.length - VALUES_SHOWN } : {}),
});

/** `data`: the frame (latin1); `reply`: it goes the way answers go; `request`: the request it answers, where known. */
export function decodeFrame(protocol: CaptureProtocol, data: string, reply: boolean, request?: string): DecodedFrame {
  switch (protocol) {
    case 'mewtocol':
      return decodeMew(data, request);
    case 'mewtocol7':
      return decodeMew7(data, request);
    case 'modbus_rtu':
    case 'modbus_tcp':
      return decodeModbus(protocol, data, reply, request);
    case 'iec104':
      return decodeIec(data);
  }
}

function mewRequestParts(req: MewRequest): Partial<DecodedFrame> {
  const r = req as Partial<{
    area: string;
    start: number;
    count: number;
    words: number[];
    value: boolean;
    contact: { area: string; word?: number; bit?: number; index?: number };
  }>;
  const out: Partial<DecodedFrame> = { command: req.cmd };
  if (r.area) out.area = r.area;
  if (r.contact) out.area = r.contact.area;
  if (r.start !== undefined) out.start = r.start;
  if (r.contact) out.start = r.contact.index ?? (r.contact.word ?? 0) * 16 + (r.contact.bit ?? 0);
  if (r.count !== undefined) out.count = r.count;
  if (r.words) Object.assign(out, { count: r.words.length }, shown(r.words));
  if (r.value !== undefined) Object.assign(out, shown([r.value]));
  if (req.cmd === 'RS' || req.cmd === 'WS') out.area = 'SV';
  if (req.cmd === 'RK' || req.cmd === 'WK') out.area = 'EV';
  return out;
}

function decodeMew(data: string, request?: string): DecodedFrame {
  const f = decodeMewFrame(data);
  if (!f.ok) return { what: 'unreadable', problem: f.error.code, ...(f.error.station !== undefined ? { station: String(f.error.station) } : {}) };
  const station = String(f.value.station);
  const m = f.value.marker;
  if (!m) return { what: 'continued', station };
  if (m === '!') {
    const code = Number(f.value.text.slice(0, 2));
    return { what: 'error', station, error: { table: 'mewtocol', code, key: mewErrorInfo(code).key } };
  }
  if (m === '#') {
    const r = decodeMewRequest(f.value.text);
    return r.ok
      ? { what: 'request', station, ...mewRequestParts(r.value) }
      : { what: 'unreadable', station, problem: r.error.code, command: f.value.text.slice(0, 2) };
  }
  // an answer: its values, read against the request it answers
  const asked = request === undefined ? undefined : decodeMewFrame(request);
  const req = asked?.ok && asked.value.marker === '#' ? decodeMewRequest(asked.value.text) : undefined;
  if (!req?.ok || f.value.more) return { what: 'answer', station, command: f.value.text.slice(0, 2) };
  const reply = decodeMewReply(req.value, f.value.text);
  const parts = mewRequestParts(req.value);
  delete parts.values;
  delete parts.more;
  // an answer that does not fit the request before it (a late answer to one given up): shown as it is
  if (!reply.ok) return { what: 'answer', station, command: f.value.text.slice(0, 2) };
  const v = reply.value as { kind: string; words?: number[]; values?: boolean[] };
  return { what: 'answer', station, ...parts, ...(v.words ? shown(v.words) : v.values ? shown(v.values) : {}) };
}

function decodeMew7(data: string, request?: string): DecodedFrame {
  const f = decodeMew7Frame(data);
  if (!f.ok) return { what: 'unreadable', problem: f.error.code };
  const base = { station: String(f.value.station), id: f.value.frameNo };
  const m = f.value.marker;
  if (!m) return { what: 'continued', ...base };
  if (m === '!') {
    const code = Number(f.value.text.slice(-2));
    return { what: 'error', ...base, error: { table: 'mewtocol', code, key: mewErrorInfo(code).key } };
  }
  if (m === '#') {
    const r = decodeMew7Request(f.value.text);
    if (!r.ok) return { what: 'unreadable', ...base, problem: r.error.code };
    return r.value.cmd === 'STRD'
      ? { what: 'request', ...base, command: 'STRD' }
      : { what: 'request', ...base, command: 'MMRD', area: r.value.area, start: r.value.address, count: r.value.count };
  }
  const asked = request === undefined ? undefined : decodeMew7Frame(request);
  const req = asked?.ok && asked.value.marker === '#' ? decodeMew7Request(asked.value.text) : undefined;
  if (!req?.ok || f.value.more) return { what: 'answer', ...base };
  const reply = decodeMew7Reply(req.value, f.value.text);
  if (!reply.ok) return { what: 'answer', ...base };
  if (reply.value.kind === 'status' || req.value.cmd === 'STRD') return { what: 'answer', ...base, command: 'STRD' };
  return { what: 'answer', ...base, command: 'MMRD', area: req.value.area, start: req.value.address, ...shown(reply.value.words) };
}

/** unit and PDU of a Modbus frame (RTU or TCP), or why it cannot be read */
function modbusAdu(protocol: 'modbus_rtu' | 'modbus_tcp', data: string): { unit: number; pdu: Uint8Array; id?: number } | { problem: string } {
  if (protocol === 'modbus_tcp') {
    const f = decodeTcpFrame(bytes(data));
    return f.ok ? { unit: f.value.unit, pdu: f.value.pdu, id: f.value.transaction } : { problem: f.error.code };
  }
  const f = decodeRtuFrame(bytes(data));
  return f.ok ? { unit: f.value.unit, pdu: f.value.pdu } : { problem: f.error.code };
}

function modbusRequestParts(r: ModbusRequest): Partial<DecodedFrame> {
  const area = r.fc === 1 || r.fc === 5 || r.fc === 15 ? 'coils' : r.fc === 2 ? 'inputs' : r.fc === 4 ? 'input_registers' : 'holding_registers';
  const out: Partial<DecodedFrame> = { command: `FC${r.fc}`, area, start: r.address };
  if ('quantity' in r) out.count = r.quantity;
  if ('value' in r) Object.assign(out, { count: 1 }, shown([r.value]));
  if ('values' in r) Object.assign(out, { count: r.values.length }, shown(r.values));
  return out;
}

function decodeModbus(protocol: 'modbus_rtu' | 'modbus_tcp', data: string, reply: boolean, request?: string): DecodedFrame {
  const adu = modbusAdu(protocol, data);
  if ('problem' in adu) return { what: 'unreadable', problem: adu.problem };
  const base = { station: String(adu.unit), ...(adu.id !== undefined ? { id: adu.id } : {}) };
  const fc = adu.pdu[0] ?? 0;
  if (fc & 0x80) {
    const code = adu.pdu[1] ?? 0;
    return { what: 'error', ...base, command: `FC${fc & 0x7f}`, error: { table: 'modbus', code, key: modbusExceptionInfo(code).key } };
  }
  if (!reply) {
    const r = decodeModbusRequest(adu.pdu);
    return r.ok ? { what: 'request', ...base, ...modbusRequestParts(r.value) } : { what: 'unreadable', ...base, command: `FC${fc}`, problem: r.error.code };
  }
  const asked = request === undefined ? undefined : modbusAdu(protocol, request);
  const req = asked && 'pdu' in asked ? decodeModbusRequest(asked.pdu) : undefined;
  // decoded against its request where it fits it, else as it is (a late answer to one given up)
  const fits = req?.ok ? decodeModbusResponse(adu.pdu, req.value) : undefined;
  const res = fits?.ok ? fits : decodeModbusResponse(adu.pdu);
  if (!res.ok) return { what: 'unreadable', ...base, command: `FC${fc}`, problem: res.error.code };
  const parts = fits?.ok && req?.ok ? modbusRequestParts(req.value) : { command: `FC${fc}` };
  delete parts.values;
  delete parts.more;
  const r = res.value;
  if (isModbusException(r))
    return { what: 'error', ...base, ...parts, error: { table: 'modbus', code: r.exception, key: modbusExceptionInfo(r.exception).key } };
  const values = 'registers' in r ? r.registers : 'bits' in r ? r.bits : undefined;
  return { what: 'answer', ...base, ...parts, ...(values ? shown(values) : {}) };
}

function decodeIec(data: string): DecodedFrame {
  const a = decodeApdu(bytes(data));
  if (!a.ok) return { what: 'unreadable', problem: a.error.code };
  const apdu = a.value;
  if (apdu.format === 'U') return { what: 'iec', command: 'U', iec: { u: apdu.fn } };
  if (apdu.format === 'S') return { what: 'iec', command: 'S', iec: { nr: apdu.nr } };
  const iec: NonNullable<DecodedFrame['iec']> = { ns: apdu.ns, nr: apdu.nr };
  const asdu = decodeAsdu(apdu.asdu);
  const header = asdu.ok ? asdu.value : decodeHeader(apdu.asdu);
  if (header) {
    iec.typeId = header.type;
    iec.type = typeInfo(header.type)?.name ?? `type ${header.type}`;
    Object.assign(iec, { cot: header.cot.cause, negative: header.cot.negative, test: header.cot.test });
  }
  if (asdu.ok) {
    iec.objects = asdu.value.objects.length;
    iec.ioas = asdu.value.objects.slice(0, VALUES_SHOWN).map((o) => o.ioa);
    const values = asdu.value.objects.flatMap((o) => ('value' in o.element && typeof o.element.value !== 'undefined' ? [Number(o.element.value)] : []));
    return { what: 'iec', command: 'I', ...(header ? { station: String(header.ca) } : {}), iec, ...(values.length ? shown(values) : {}) };
  }
  return { what: 'unreadable', command: 'I', problem: asdu.error.code, ...(header ? { station: String(header.ca) } : {}), iec };
}
