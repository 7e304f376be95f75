import { describe, expect, it } from 'vitest';
import { startError } from './cli.ts';

const inUse = (port: number, address = '127.0.0.1') =>
  Object.assign(new Error(`listen EADDRINUSE: address already in use ${address}:${port}`), { code: 'EADDRINUSE', port, address });

describe('startError: the start-up failure names the socket that failed', () => {
  it('the HTTP port: --port helps', () => {
    expect(startError(inUse(18181), 18181, 'Simulator')).toBe(
      "Port 18181 (the console's HTTP port on 127.0.0.1) is already in use: choose another with --port N",
    );
  });
  it('the HTTPS port of the console: --tls-port helps', () => {
    expect(startError(inUse(8081), 8080, 'Daemon', 8081)).toBe(
      "Port 8081 (the console's HTTPS port on 127.0.0.1) is already in use: choose another with --tls-port N",
    );
  });
  it('another socket is named, not the HTTP port', () => {
    const msg = startError(inUse(9094, '127.0.0.2'), 18181, 'Simulator');
    expect(msg).toBe('Simulator failed to start: 127.0.0.2:9094 is already in use');
    expect(msg).not.toContain('18181');
  });
  it("a virtual PLC's listen error keeps its own message (which socket, what to do)", () => {
    const e = Object.assign(
      new Error('virtual PLC cannot listen: 127.0.0.2:9094 is in use (give COM4 other mewtocolPort/modbusPort in the PLC file, 0 = any free port)'),
      { code: 'EADDRINUSE' },
    );
    expect(startError(e, 18181, 'Simulator')).toBe(`Simulator failed to start: ${e.message}`);
  });
});
