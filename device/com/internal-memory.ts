// The INTERNAL interface: the unit's own volatile memory, reached by Modbus (mewtocol.md §9):
// holding registers 0–32767 are the user area (read/write), 32768–33023 reserved, 33024–33083 the
// FP0 expansion area (read/write), 33088–33120 system information (read only). Nothing survives a
// restart of the daemon, as on the unit. The INTERNAL link talks Modbus/TCP to it over an
// in-process channel, so every user of a link (logger, gateway, services) treats it like a PLC.

import type { ByteChannel } from '../../hw/types.ts';
import {
  createTcpDecoder,
  decodeModbusRequest,
  encodeModbusException,
  encodeModbusResponse,
  encodeTcpFrame,
  MODBUS_EXCEPTION,
  type ModbusRequest,
  type ModbusResponse,
} from '../protocol/index.ts';

const SIZE = 33121;
const READ_ONLY_FROM = 33088;
const RESERVED = [32768, 33023] as const;

const inReserved = (a: number, n: number) => a <= RESERVED[1] && a + n - 1 >= RESERVED[0];

export class InternalMemory {
  readonly words = new Uint16Array(SIZE);

  private check(address: number, count: number, write: boolean): boolean {
    return address + count <= SIZE && !inReserved(address, count) && !(write && address + count > READ_ONLY_FROM);
  }

  private respond(req: ModbusRequest): ModbusResponse | number {
    switch (req.fc) {
      case 3:
      case 4:
        if (!this.check(req.address, req.quantity, false)) return MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS;
        return { fc: req.fc, registers: Array.from(this.words.subarray(req.address, req.address + req.quantity)) };
      case 6:
        if (!this.check(req.address, 1, true)) return MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS;
        this.words[req.address] = req.value;
        return { fc: 6, address: req.address, value: req.value };
      case 16:
        if (!this.check(req.address, req.values.length, true)) return MODBUS_EXCEPTION.ILLEGAL_DATA_ADDRESS;
        this.words.set(req.values, req.address);
        return { fc: 16, address: req.address, quantity: req.values.length };
      default:
        return MODBUS_EXCEPTION.ILLEGAL_FUNCTION; // holding registers only: no coils or inputs
    }
  }

  /** The response PDU to a request PDU. */
  answer(pdu: Uint8Array): Uint8Array {
    const req = decodeModbusRequest(pdu);
    if (!req.ok) return encodeModbusException(req.error.fc ?? pdu[0] ?? 0, req.error.exception ?? MODBUS_EXCEPTION.ILLEGAL_FUNCTION);
    const r = this.respond(req.value);
    return typeof r === 'number' ? encodeModbusException(req.value.fc, r) : encodeModbusResponse(r);
  }
}

/** A Modbus/TCP channel answered by the memory itself (asynchronously, like any peer). */
export function internalChannel(mem: InternalMemory): ByteChannel {
  const decoder = createTcpDecoder();
  let onData: (b: Uint8Array) => void = () => {};
  let open = true;
  return {
    write(bytes) {
      if (!open) return;
      for (const ev of decoder.push(bytes)) {
        if (ev.type !== 'frame') continue;
        const out = encodeTcpFrame({ transaction: ev.transaction, unit: ev.unit, pdu: mem.answer(ev.pdu) });
        queueMicrotask(() => {
          if (open) onData(out);
        });
      }
    },
    onData: (h) => {
      onData = h;
    },
    onClose: () => {},
    get isOpen() {
      return open;
    },
    close: async () => {
      open = false;
    },
  };
}
