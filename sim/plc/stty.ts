// The line settings a daemon set on its end of a pseudo-terminal, read with `stty -F <path> -a`.
// A Linux pty keeps what the daemon set for the speed, PARODD and CSTOPB, but forces 8 data bits
// and clears PARENB, and `serialport` leaves PARODD as it was when it sets no parity. So:
//   baud, stop bits   as read
//   data bits         not visible: taken to be the PLC's
//   parity            PARODD set   → the host is at odd or none parity
//                     PARODD clear → the host is at even or none parity
//                     when the PLC's parity is one of the two it is taken to agree, else the host
//                     is at the other (odd or even) and the line garbles.
// A daemon at the wrong baud rate or stop bits, or at even parity against an odd PLC (the unit's
// default 8O1), or the reverse, is seen; 7 against 8 data bits and "none against odd/even" are not.
import { execFile } from 'node:child_process';
import type { SerialFraming } from '../wire.ts';

export interface SttyLine {
  baud: number;
  parodd: boolean;
  cstopb: boolean;
}

/** The speed, PARODD and CSTOPB of `stty -a` output; undefined when it has no usable speed. */
export function parseStty(out: string): SttyLine | undefined {
  const speed = /\bspeed (\d+) baud/.exec(out);
  const baud = speed ? Number(speed[1]) : 0;
  if (!(baud > 0)) return undefined;
  const flags = new Set(out.split(/[\s;]+/));
  return { baud, parodd: flags.has('parodd'), cstopb: flags.has('cstopb') };
}

/** The framing of the host as far as the pty shows it, the rest taken from the PLC (see above). */
export function hostFramingOf(line: SttyLine, plc: SerialFraming): SerialFraming {
  const possible = line.parodd ? ['odd', 'none'] : ['even', 'none'];
  const parity = possible.includes(plc.parity) ? plc.parity : line.parodd ? 'odd' : 'even';
  return { baud: line.baud, bits: plc.bits, parity, stopbits: line.cstopb ? 2 : 1 };
}

export type SttyRunner = (path: string) => Promise<string>;

const runStty: SttyRunner = (path) =>
  new Promise((resolve, reject) => {
    execFile('stty', ['-F', path, '-a'], { timeout: 2000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });

/** Reads the settings of `path` at most once per `maxAgeMs`; concurrent callers share one run. */
export class SttyReader {
  private last: SttyLine | undefined;
  private readAt = -Infinity;
  private running: Promise<SttyLine | undefined> | undefined;

  constructor(
    private readonly path: string,
    private readonly maxAgeMs = 100,
    private readonly run: SttyRunner = runStty,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The last reading (undefined before the first or when stty could not read the port). */
  current(): SttyLine | undefined {
    return this.last;
  }

  /** A reading at most `maxAgeMs` old, or a new one when `force` (a run under way is shared either way). */
  fresh(force = false): Promise<SttyLine | undefined> {
    if (!force && !this.running && this.now() - this.readAt <= this.maxAgeMs) return Promise.resolve(this.last);
    this.running ??= this.run(this.path)
      .then(parseStty, () => undefined)
      .then((line) => {
        this.last = line;
        this.readAt = this.now();
        this.running = undefined;
        return line;
      });
    return this.running;
  }
}
