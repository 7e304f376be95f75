// Autobaud (pew `autobaud`): a link finds the rate of a virtual PLC set to each supported baud rate
// of spec §3 on a wire that garbles mismatched settings, reports it, and then talks at that rate.
import { describe, expect, it } from 'vitest';
import { autobaudOrder, probeTimeoutMs } from '../../device/com/autobaud.ts';
import { Link } from '../../device/com/link.ts';
import type { LinkConfig } from '../../device/com/link-types.ts';
import { MewtocolDriver } from '../../device/com/mewtocol-driver.ts';
import { ModbusDriver } from '../../device/com/modbus-driver.ts';
import { BAUD_RATES } from '../../device/model/plc.ts';
import { createLogger } from '../../device/system/log.ts';
import { type ByteChannel, systemClock } from '../../hw/types.ts';
import { createPlcEndpoint } from '../../sim/plc/endpoint.ts';
import { SerialPlcAttachment } from '../../sim/plc/serial-attachment.ts';
import { VirtualPlc } from '../../sim/plc/virtual-plc.ts';
import { realTimers } from '../../sim/wire.ts';

const log = createLogger({ clock: systemClock, sink: null });

function linkTo(att: SerialPlcAttachment, protocol: 'MEWTOCOL' | 'MODBUS', parity: 'odd' | 'even' = 'odd') {
  const cfg: LinkConfig = {
    id: 0,
    name: 'COM1',
    kind: 'serial',
    protocol,
    autobaud: true,
    timeoutMs: 1000,
    waitMs: 0,
    ipPort: '',
    station: 0,
    serial: { baudRate: 9600, dataBits: 8, parity, stopBits: 1, rtscts: false },
  };
  return new Link(cfg, {
    driver: protocol === 'MODBUS' ? new ModbusDriver(1, 'rtu') : new MewtocolDriver('EE'),
    clock: systemClock,
    log,
    reconnect: { firstMs: 50, maxMs: 60_000 },
    open: async (baudRate) => att.open({ ...cfg.serial, baudRate }),
  });
}

describe('autobaud', () => {
  it('tries the configured rate first, then the common ones, every rate of spec §3 once', () => {
    const order = autobaudOrder(9600);
    expect(order[0]).toBe(9600);
    expect([...order].sort((a, b) => a - b)).toEqual([...BAUD_RATES].sort((a, b) => a - b));
    expect(autobaudOrder(4800).slice(0, 3)).toEqual([4800, 19200, 115200]);
  });

  it('finds a MEWTOCOL PLC set to each supported rate and then reads at it', async () => {
    const runs = BAUD_RATES.map(async (baud) => {
      const plc = new VirtualPlc({ model: 'FP-X' });
      plc.memory.writeWords('DT', 0, [baud & 0xffff]);
      const att = new SerialPlcAttachment(plc, { protocol: 'MEWTOCOL', framing: { baud, bits: 8, parity: 'odd', stopbits: 1 } });
      const link = linkTo(att, 'MEWTOCOL');
      try {
        link.start();
        // a scan in which no rate answered in its probe's time (each waits the wire time plus 150 ms:
        // nine scans at once on a busy machine can miss it) is followed by the next one, as on a unit
        await expect.poll(() => link.status().autobaud, { timeout: 60_000, interval: 50 }).toBe('found');
        expect(link.status()).toMatchObject({ state: 'up', baudRate: baud, autobaud: 'found' });
        expect(await link.readWords('DT', 0, 1)).toEqual([baud & 0xffff]);
      } finally {
        await link.close();
      }
    });
    await Promise.all(runs);
  });

  it('finds a Modbus RTU PLC too', async () => {
    const att = new SerialPlcAttachment(new VirtualPlc({ model: 'FP-XH' }), {
      protocol: 'MODBUS',
      framing: { baud: 57600, bits: 8, parity: 'odd', stopbits: 1 },
    });
    const link = linkTo(att, 'MODBUS');
    link.start();
    await expect.poll(() => link.status().autobaud, { timeout: 20_000, interval: 50 }).toBe('found');
    expect(link.status().baudRate).toBe(57600);
    await link.close();
  });

  it("an answer too late for the probe at the PLC's rate is not taken for the next rate's", async () => {
    // A PLC at 57600 whose first answer comes after the probe at 57600 has given up: while the link
    // probes at 38400, the next rate tried. It hears only what comes at its own rate, and its
    // answers reach whichever end of the wire is open (a pseudo-terminal keeps what is on the line).
    const PLC_BAUD = 57600;
    const plc = new VirtualPlc({ model: 'FP-X', scanMs: 0 });
    let deliver: (b: Uint8Array) => void = () => {};
    let answers = 0;
    const endpoint = createPlcEndpoint(plc, {
      protocol: 'MEWTOCOL',
      transport: 'serial',
      timers: realTimers,
      send: (b) => {
        const late = answers++ === 0 ? probeTimeoutMs(PLC_BAUD, { dataBits: 8, parity: 'odd', stopBits: 1 }) + 40 : 0;
        setTimeout(() => deliver(b), late);
      },
    });
    const cfg: LinkConfig = {
      id: 0,
      name: 'COM1',
      kind: 'serial',
      protocol: 'MEWTOCOL',
      autobaud: true,
      timeoutMs: 1000,
      waitMs: 0,
      ipPort: '',
      station: 0,
      serial: { baudRate: 9600, dataBits: 8, parity: 'odd', stopBits: 1, rtscts: false },
    };
    const open = async (baud: number): Promise<ByteChannel> => {
      let on: (b: Uint8Array) => void = () => {};
      let isOpen = true;
      deliver = (b) => {
        if (isOpen) on(b);
      };
      return {
        write: (b) => {
          if (baud === PLC_BAUD) endpoint.receive(b);
        },
        onData: (h) => {
          on = h;
        },
        onClose: () => {},
        close: async () => {
          isOpen = false;
        },
        get isOpen() {
          return isOpen;
        },
      };
    };
    expect(autobaudOrder(9600).indexOf(38400)).toBe(autobaudOrder(9600).indexOf(PLC_BAUD) + 1);
    const link = new Link(cfg, { driver: new MewtocolDriver('EE'), clock: systemClock, log, reconnect: { firstMs: 50, maxMs: 60_000 }, open });
    try {
      link.start();
      await expect.poll(() => link.status().autobaud, { timeout: 30_000, interval: 50 }).toBe('found');
      expect(link.status()).toMatchObject({ state: 'up', baudRate: PLC_BAUD });
    } finally {
      await link.close();
    }
  });

  it('a PLC at another parity answers at no rate: autobaud reports it failed and the link down', async () => {
    const att = new SerialPlcAttachment(new VirtualPlc({ model: 'FP-X' }), {
      protocol: 'MEWTOCOL',
      framing: { baud: 19200, bits: 8, parity: 'even', stopbits: 1 },
    });
    const link = linkTo(att, 'MEWTOCOL', 'odd');
    link.start();
    await expect.poll(() => link.status().autobaud, { timeout: 20_000, interval: 50 }).toBe('failed');
    expect(link.status()).toMatchObject({ state: 'down', reason: { code: 'baud_not_found' } });
    await expect(link.readWords('DT', 0, 1)).rejects.toMatchObject({ reason: 'link_down', message: 'Autobaud found no answering PLC at any baud rate' });
    await link.close();
  });
});
