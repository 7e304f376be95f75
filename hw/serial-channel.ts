// A serial device (the unit's UART, a USB CDC port, or a pseudo-terminal in tests) as a ByteChannel,
// through `serialport`. Used by hw/linux for the unit's connectors and by the simulator for a
// connector mapped to a device path. `serialport` (a native binding, several MB resident) is loaded
// when the first port opens: a unit or simulator without a serial link never pays for it.
import type { ByteChannel, SerialSettings } from './types.ts';

export async function openSerialChannel(path: string, s: SerialSettings): Promise<ByteChannel> {
  const { SerialPort } = await import('serialport');
  const port = new SerialPort({
    path,
    baudRate: s.baudRate,
    dataBits: s.dataBits,
    parity: s.parity,
    stopBits: s.stopBits,
    rtscts: s.rtscts,
    autoOpen: false,
  });
  await new Promise<void>((resolve, reject) => port.open((e) => (e ? reject(new Error(`${path}: ${e.message}`)) : resolve())));
  let onData: (b: Uint8Array) => void = () => {};
  let onClose: (e?: Error) => void = () => {};
  let closing = false;
  port.on('data', (chunk: Buffer) => onData(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)));
  // 'close' after a device disappears carries a disconnected error; after our own close() nothing is reported
  port.on('close', (err?: Error) => {
    if (!closing) onClose(err ?? new Error(`${path} closed`));
  });
  port.on('error', () => {
    /* reported through write callbacks and 'close' */
  });
  return {
    write: (bytes) => {
      if (port.isOpen) port.write(Buffer.from(bytes));
    },
    onData: (h) => {
      onData = h;
    },
    onClose: (h) => {
      onClose = h;
    },
    get isOpen() {
      return port.isOpen;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        if (!port.isOpen) return resolve();
        port.close(() => resolve());
      }),
  };
}
