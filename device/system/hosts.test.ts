import { describe, expect, it } from 'vitest';
import { hostOf, isUnitHost } from './hosts.ts';

const names = { localAddress: '::ffff:192.168.1.10', hostname: 'communicator', configured: ['plc-gw.plant.example'] };

describe('Host header check (security.md HOST-1)', () => {
  it('takes the host part of a Host header', () => {
    expect(hostOf('Example.COM:8080')).toBe('example.com');
    expect(hostOf('example.com.')).toBe('example.com');
    expect(hostOf('[::1]:80')).toBe('::1');
    expect(hostOf('192.168.1.10')).toBe('192.168.1.10');
    expect(hostOf('')).toBeUndefined();
    expect(hostOf('a b')).toBeUndefined();
    expect(hostOf('evil.example@192.168.1.10')).toBeUndefined();
  });
  it('accepts the arrival address, loopback, localhost, the host name and configured names', () => {
    for (const h of [
      '192.168.1.10:8080',
      '127.0.0.1',
      '127.0.0.2:1',
      '[::1]:8080',
      'localhost:5173',
      'LOCALHOST',
      'communicator',
      'communicator.local:80',
      'plc-gw.plant.example',
      'PLC-GW.plant.example.:443',
    ])
      expect(isUnitHost(h, names), h).toBe(true);
  });
  it('refuses other names, other addresses and a missing header', () => {
    for (const h of [
      'rebind.attacker.example',
      'localhost.attacker.example',
      'communicator.attacker.example',
      '192.168.1.11',
      '10.0.0.1:8080',
      'plant.example',
      '',
      undefined,
    ])
      expect(isUnitHost(h, names), String(h)).toBe(false);
  });
});
