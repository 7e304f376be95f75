// device/protocol: pure codecs for the PLC protocols the unit speaks (architecture.md: "imports
// nothing but itself"). No I/O, no timers, no Node APIs: strings for the ASCII protocols,
// Uint8Array for bytes, so the simulator, the COM links and the browser can all import it.
//
//   MEWTOCOL-COM   mewtocol-frame (BCC, frames, multi-frame), mewtocol-stream (decoder state
//                  machine), mewtocol-commands / -replies / -status (typed commands), mewtocol-plan
//                  (split long reads/writes), mewtocol-exchange (request/reply frames), mewtocol-errors
//   MEWTOCOL7      mewtocol7-frame (CRC, frames), mewtocol7-stream, mewtocol7-commands (STRD, MMRD)
//   Modbus         modbus-pdu / -response (FC 1-6, 15, 16, exceptions), modbus-rtu (CRC, stream
//                  decoder), modbus-tcp (MBAP, stream decoder), modbus-plan
//   Areas          areas (limits, bit/word addresses), panasonic-modbus (Modbus <-> PLC areas)
// Decoders return Result and never throw; encoders throw RangeError on values a frame cannot carry.

export * from './areas.ts';
export { asciiToBytes, bytesToAscii, hexToWords, wordsToHex, wordToHex } from './ascii.ts';
export { type AsciiFramer, createAsciiFramer, type FramerEvent } from './ascii-framer.ts';
export * from './fp-clock.ts';
export * from './mewtocol-commands.ts';
export * from './mewtocol-errors.ts';
export * from './mewtocol-exchange.ts';
export * from './mewtocol-frame.ts';
export * from './mewtocol-plan.ts';
export * from './mewtocol-replies.ts';
export * from './mewtocol-status.ts';
export * from './mewtocol-stream.ts';
export * from './mewtocol7-commands.ts';
export * from './mewtocol7-frame.ts';
export * from './mewtocol7-stream.ts';
export {
  decodeModbusRequest,
  encodeModbusException,
  encodeModbusRequest,
  isModbusException,
  MODBUS_EXCEPTION,
  MODBUS_LIMITS,
  MODBUS_MAX_PDU,
  type ModbusExceptionResponse,
  type ModbusFunctionCode,
  type ModbusRequest,
  type ModbusRequestError,
  type ModbusResponse,
  modbusExceptionInfo,
  packBits,
  unpackBits,
} from './modbus-pdu.ts';
export * from './modbus-plan.ts';
export * from './modbus-response.ts';
export * from './modbus-rtu.ts';
export * from './modbus-tcp.ts';
export * from './panasonic-modbus.ts';
export { fail, ok, type ProtocolError, type Result } from './result.ts';
