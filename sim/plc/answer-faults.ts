// How the `bad_check` and `garble` faults (virtual-plc.ts) spoil an answer on its way out, for
// each kind of frame an endpoint sends:
//   mew   MEWTOCOL-COM  ...text BCC(2) [&] CR
//   mew7  MEWTOCOL7     ...text CRC(4) [&] CR
//   rtu   Modbus RTU    unit PDU CRC(2)
//   tcp   Modbus/TCP    MBAP(7) PDU — no check code: bad_check gives a transaction id that does not match
// `garble` flips the lowest bit of the last payload byte before the check code, so the frame keeps
// its length and shape and only the check fails at the receiver.
export type AnswerFormat = 'mew' | 'mew7' | 'rtu' | 'tcp';

const CR = 0x0d;
const AMP = 0x26;
const HEX = '0123456789ABCDEF';

/** Index after the check code of a text frame (before `&` and CR). */
const textCheckEnd = (b: Uint8Array): number => {
  let end = b.length;
  if (b[end - 1] === CR) end--;
  if (b[end - 1] === AMP) end--;
  return end;
};

const CHECK_CHARS: Readonly<Record<'mew' | 'mew7', number>> = { mew: 2, mew7: 4 };

/** The same frame with a check code that cannot match. */
export function breakCheck(bytes: Uint8Array, format: AnswerFormat): Uint8Array {
  const b = bytes.slice();
  if (format === 'rtu') {
    b[b.length - 1]! ^= 0xff;
  } else if (format === 'tcp') {
    b[1]! ^= 0x01; // transaction id, low byte
  } else {
    const end = textCheckEnd(b);
    // each check digit becomes the next hex digit: always another code
    for (let i = end - CHECK_CHARS[format]; i < end; i++) b[i] = HEX.charCodeAt((HEX.indexOf(String.fromCharCode(b[i]!)) + 1) % 16);
  }
  return b;
}

/** The same frame with one payload byte corrupted. */
export function garble(bytes: Uint8Array, format: AnswerFormat): Uint8Array {
  const b = bytes.slice();
  const at = format === 'tcp' ? b.length - 1 : format === 'rtu' ? b.length - 3 : textCheckEnd(b) - CHECK_CHARS[format] - 1;
  b[at]! ^= 0x01;
  return b;
}
