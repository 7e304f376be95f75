// The connection test of a redirect thread (/port): a real client request through the thread's
// port, as an engineering tool or a SCADA client would send it, and the answer as received.
//   MEWTOCOL thread   RT when status commands pass, else a read of the first granted word
//   Modbus thread     a read of the first granted entry (gateway: at its mapped address; a plain
//                     thread on a Modbus interface: at the entry's Panasonic address), else DT0
import { connect } from 'node:net';
import { printable } from '../com/dialog.ts';
import type { PortTestFailure, PortTestResult } from '../model/porttest.ts';
import type { Restriction, Thread } from '../model/sections/redirect.ts';
import {
  asciiToBytes,
  createMewStreamDecoder,
  createTcpDecoder,
  encodeModbusRequest,
  encodeTcpFrame,
  type MewRequest,
  type ModbusRequest,
  mewCommandFrames,
  plcToModbus,
} from '../protocol/index.ts';

const firstGrant = (t: Thread): Restriction | undefined => t.mapping.find((r) => r.read_write !== 'BLK');

function mewRequest(t: Thread): MewRequest {
  const r = firstGrant(t);
  if (t.monitoring_cmd || !r) return { cmd: 'RT' };
  if (r.area === 'DT' || r.area === 'LD' || r.area === 'FL') return { cmd: 'RD', area: r.area, start: r.register_area_start, count: 1 };
  return { cmd: 'RCC', area: r.area, start: r.register_area_start, count: 1 };
}

function modbusRequest(t: Thread): ModbusRequest {
  const r = firstGrant(t);
  if (!r) return { fc: 3, address: 0, quantity: 1 };
  const fc = ([3, 4, 1, 2] as const)[r.type] ?? 3;
  if (t.mb_translation) return { fc, address: r.register_area_mapped, quantity: 1 };
  const at = plcToModbus({ area: r.area, address: r.register_area_start } as never);
  return { fc: at?.table === 'input' ? 4 : 3, address: at?.address ?? 0, quantity: 1 };
}

export function runPortTest(index: number, t: Thread, modbus: boolean, host: string, timeoutMs: number): Promise<PortTestResult> {
  const bytes = modbus
    ? encodeTcpFrame({ transaction: 1, unit: 1, pdu: encodeModbusRequest(modbusRequest(t)) })
    : asciiToBytes(mewCommandFrames('EE', mewRequest(t))[0]!);
  const request = printable(bytes, !modbus);
  const got: number[] = [];
  let sent = false;
  return new Promise((resolve) => {
    const socket = connect({ host: host === '0.0.0.0' ? '127.0.0.1' : host, port: t.port });
    const done = (r: PortTestResult) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const fail = (reason: PortTestFailure, message: string) =>
      done({ ok: false, index, reason, message, ...(sent ? { request } : {}), raw: printable(got, !modbus) });
    const timer = setTimeout(() => fail('no_answer', `No answer through port ${t.port} within ${timeoutMs} ms`), timeoutMs);
    const mew = createMewStreamDecoder();
    const mb = createTcpDecoder();
    socket.on('error', (e: NodeJS.ErrnoException) => fail('not_listening', e.code === 'ECONNREFUSED' ? `Nothing listens on port ${t.port}` : e.message));
    socket.on('close', () => fail('refused', `Port ${t.port} closed the connection: this address or the client limit is not admitted`));
    socket.on('connect', () => {
      sent = true;
      socket.write(bytes);
    });
    socket.on('data', (b: Buffer) => {
      got.push(...b);
      if (modbus) {
        for (const ev of mb.push(new Uint8Array(b))) {
          if (ev.type !== 'frame') return fail('error_answer', ev.message);
          if (ev.pdu[0]! & 0x80) return fail('error_answer', `Modbus exception ${ev.pdu[1]}`);
          return done({ ok: true, index, request, raw: printable(got, false) });
        }
      } else {
        for (const ev of mew.push(new Uint8Array(b))) {
          if (ev.type !== 'message') continue;
          if (ev.message.kind === 'error') return fail('error_answer', `MEWTOCOL error ${String(ev.message.code).padStart(2, '0')}`);
          return done({ ok: true, index, request, raw: printable(got, true) });
        }
      }
    });
  });
}
