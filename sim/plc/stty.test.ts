import { describe, expect, it } from 'vitest';
import type { SerialFraming } from '../wire.ts';
import { hostFramingOf, parseStty, SttyReader } from './stty.ts';

// `stty -F <pty> -a` after serialport opened it with 8O1 at 9600 (Linux: PARENB cleared by the pty)
const ODD_9600 = `speed 9600 baud; rows 0; columns 0; line = 0;
intr = ^C; quit = ^\\; erase = ^?; kill = ^U; eof = ^D; eol = <undef>;
werase = ^W; lnext = ^V; discard = ^O; min = 1; time = 0;
-parenb parodd -cmspar cs8 -hupcl -cstopb cread -clocal -crtscts
-ignbrk -brkint -ignpar -parmrk -inpck -istrip -inlcr -igncr -icrnl -ixon -ixoff`;
const EVEN_19200_2 = 'speed 19200 baud; line = 0;\n-parenb -parodd -cmspar cs8 -hupcl cstopb cread clocal -crtscts';

const plc8O1: SerialFraming = { baud: 9600, bits: 8, parity: 'odd', stopbits: 1 };

describe('line settings of a pseudo-terminal', () => {
  it('reads speed, PARODD and CSTOPB', () => {
    expect(parseStty(ODD_9600)).toEqual({ baud: 9600, parodd: true, cstopb: false });
    expect(parseStty(EVEN_19200_2)).toEqual({ baud: 19200, parodd: false, cstopb: true });
    expect(parseStty('speed 0 baud; -parodd')).toBeUndefined();
    expect(parseStty('stty: /dev/x: No such file')).toBeUndefined();
  });

  it('takes what the pty cannot show from the PLC, and sees parity mismatches where it can', () => {
    expect(hostFramingOf({ baud: 9600, parodd: true, cstopb: false }, plc8O1)).toEqual(plc8O1);
    expect(hostFramingOf({ baud: 19200, parodd: false, cstopb: true }, plc8O1)).toEqual({ baud: 19200, bits: 8, parity: 'even', stopbits: 2 });
    const plc7E1: SerialFraming = { baud: 9600, bits: 7, parity: 'even', stopbits: 1 };
    expect(hostFramingOf({ baud: 9600, parodd: false, cstopb: false }, plc7E1)).toEqual(plc7E1);
    expect(hostFramingOf({ baud: 9600, parodd: true, cstopb: false }, plc7E1).parity).toBe('odd');
    const plc8N1: SerialFraming = { baud: 9600, bits: 8, parity: 'none', stopbits: 1 };
    expect(hostFramingOf({ baud: 9600, parodd: true, cstopb: false }, plc8N1).parity).toBe('none');
  });

  it('runs stty at most once per max age, one run for concurrent callers', async () => {
    let now = 0;
    const runs: string[] = [];
    let out = ODD_9600;
    const reader = new SttyReader(
      '/tmp/x',
      100,
      async (p) => {
        runs.push(p);
        return out;
      },
      () => now,
    );
    expect(reader.current()).toBeUndefined();
    const [a, b] = await Promise.all([reader.fresh(), reader.fresh()]);
    expect(a).toEqual({ baud: 9600, parodd: true, cstopb: false });
    expect(b).toBe(a);
    out = EVEN_19200_2;
    now = 100;
    expect(await reader.fresh()).toBe(a);
    now = 100.5;
    expect((await reader.fresh())?.baud).toBe(19200);
    expect(runs).toEqual(['/tmp/x', '/tmp/x']);
    out = ODD_9600;
    expect((await reader.fresh(true))?.baud).toBe(9600); // forced: read again however young the last reading
    expect(runs).toHaveLength(3);
    const failing = new SttyReader('/tmp/y', 100, () => Promise.reject(new Error('gone')));
    expect(await failing.fresh()).toBeUndefined();
  });
});
