import { describe, expect, it } from 'vitest';
import type { PartStatus } from './part.ts';
import { statusWord, stopRequested } from './plc-registers.ts';

const s = (over: Partial<PartStatus>): PartStatus => ({
  enabled: true,
  port: 1502,
  listening: true,
  stoppedByPlc: false,
  connections: 0,
  accepted: 0,
  refused: 0,
  tlsFailures: 0,
  errors: 0,
  faults: 0,
  bytesIn: 0,
  bytesOut: 0,
  ...over,
});

describe('TLS part status word (docs/tls.md)', () => {
  it('bit 0 listening, bit 1 stopped by the PLC, bit 2 error, high byte connections', () => {
    expect(statusWord(s({}), 0)).toBe(0x0001);
    expect(statusWord(s({ connections: 3 }), 0)).toBe(0x0301);
    expect(statusWord(s({ listening: false, stoppedByPlc: true }), 0)).toBe(0x0002);
    expect(statusWord(s({}), 1)).toBe(0x0005);
  });
  it('a part that cannot listen (and was not stopped) reports an error', () => {
    expect(statusWord(s({ listening: false, reason: { code: 'port_in_use', args: { port: 1502 } } }), 0)).toBe(0x0004);
  });
  it('connections above 255 show as 255', () => {
    expect(statusWord(s({ connections: 1000 }), 0) >> 8).toBe(255);
  });
  it('control: bit 0 stops', () => {
    expect(stopRequested(0)).toBe(false);
    expect(stopRequested(1)).toBe(true);
    expect(stopRequested(0x8001)).toBe(true);
    expect(stopRequested(2)).toBe(false);
  });
});
