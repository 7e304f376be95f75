// The IEC 104 stream framer: splits a TCP byte stream into APDUs by the length octet. A wrong start
// octet or a length outside 4-253 means the stream is out of step (`fatal`: the link closes the
// connection); everything buffered is dropped and framing starts again at the next start octet (a
// run of other octets is reported once). A frame
// of good length with a bad control field is reported as an error too. It never throws, never reads
// past what it was given and holds at most one APDU (255 octets).

import { APCI_START, APDU_MAX_LENGTH, type Apdu, decodeApduBody } from './apci.ts';

export type FramerEvent = { type: 'apdu'; apdu: Apdu; bytes: Uint8Array } | { type: 'error'; code: string; message: string; fatal: boolean };

export interface Iec104Framer {
  push(bytes: Uint8Array): FramerEvent[];
  /** Octets held for the next APDU. */
  buffered(): number;
  reset(): void;
}

export function createIec104Framer(): Iec104Framer {
  const buf = new Uint8Array(2 + APDU_MAX_LENGTH);
  let n = 0;
  let need = 2; // the start and length octets first, then 2 + length
  let skipping = false; // a run of octets that are no start octet is reported once

  return {
    push(bytes) {
      const out: FramerEvent[] = [];
      for (const b of bytes) {
        if (n === 0 && b !== APCI_START) {
          if (skipping) continue;
          skipping = true;
          out.push({ type: 'error', code: 'bad_start', message: `start octet 0x${b.toString(16).padStart(2, '0')}, 0x68 expected`, fatal: true });
          continue;
        }
        skipping = false;
        buf[n++] = b;
        if (n < need) continue;
        if (need === 2) {
          if (b < 4 || b > APDU_MAX_LENGTH) {
            out.push({ type: 'error', code: 'bad_length', message: `APDU length ${b} not in 4-${APDU_MAX_LENGTH}`, fatal: true });
            n = 0;
            continue;
          }
          need = 2 + b;
          continue;
        }
        const bytesOut = buf.slice(0, n);
        const d = decodeApduBody(bytesOut.subarray(2));
        out.push(d.ok ? { type: 'apdu', apdu: d.value, bytes: bytesOut } : { type: 'error', ...d.error, fatal: true });
        n = 0;
        need = 2;
      }
      return out;
    },
    buffered: () => n,
    reset() {
      n = 0;
      skipping = false;
      need = 2;
    },
  };
}
