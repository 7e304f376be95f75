import { describe, expect, it } from 'vitest';
import { parseApps, parseDefaultGateway, parseNtpConf, parseOsRelease, parseResolvConf, parseUptime } from './system.ts';

const ROUTE = [
  'Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT',
  'wwan0\t00000000\t010011AC\t0003\t0\t0\t700\t00000000\t0\t0\t0',
  'eth0\t00000000\t0100A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0',
  'eth0\t0000A8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0',
  '',
].join('\n');

describe('linux system file parsers', () => {
  it('os-release: NAME and VERSION_ID, quotes and escapes removed', () => {
    const text = '# comment\nNAME="Communicator OS"\nVERSION="1.3.2 (\\"kirkstone\\")"\nVERSION_ID=1.3.2\nID=communicator\n';
    expect(parseOsRelease(text)).toEqual({ name: 'Communicator OS', version: '1.3.2' });
    expect(parseOsRelease('NAME=\'Poky\'\nVERSION="4.0 (\\"x\\")"')).toEqual({ name: 'Poky', version: '4.0 ("x")' });
    expect(parseOsRelease('')).toEqual({});
  });

  it('uptime: whole seconds of the first figure; garbage gives undefined', () => {
    expect(parseUptime('12345.67 54321.00\n')).toBe(12345);
    expect(parseUptime('')).toBeUndefined();
    expect(parseUptime('-3 1')).toBeUndefined();
  });

  it('default gateway: the up gateway route to 0/0 with the lowest metric, in host byte order', () => {
    expect(parseDefaultGateway(ROUTE, 'LE')).toBe('192.168.0.1');
    expect(parseDefaultGateway(ROUTE, 'BE')).toBe('1.0.168.192');
    const withoutEth0 = ROUTE.split('\n')
      .filter((l) => !l.startsWith('eth0\t00000000'))
      .join('\n');
    expect(parseDefaultGateway(withoutEth0, 'LE')).toBe('172.17.0.1');
    const notUp = ROUTE.replace(/\t0003\t/g, '\t0002\t');
    expect(parseDefaultGateway(notUp, 'LE')).toBe('');
    expect(parseDefaultGateway('', 'LE')).toBe('');
  });

  it('resolv.conf and ntp.conf: servers in order, comments and duplicates dropped', () => {
    expect(
      parseResolvConf('# x\nsearch plant.local\nnameserver 192.168.0.1\n;nameserver 9.9.9.9\nnameserver 8.8.8.8 # backup\nnameserver 192.168.0.1\n'),
    ).toEqual(['192.168.0.1', '8.8.8.8']);
    expect(parseNtpConf('driftfile /var/lib/ntp/drift\nserver 0.pool.ntp.org iburst\n# server old.example\npool time.example.com\n')).toEqual([
      '0.pool.ntp.org',
      'time.example.com',
    ]);
  });

  it('apps.json: well-formed entries only', () => {
    expect(parseApps('[{"name":"HMI runtime","version":"4.5.0"},{"name":3},null,"x"]')).toEqual([{ name: 'HMI runtime', version: '4.5.0' }]);
    expect(parseApps('{"name":"x"}')).toEqual([]);
    expect(parseApps('not json')).toEqual([]);
  });
});
