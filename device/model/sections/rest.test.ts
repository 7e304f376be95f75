import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectRange, expectRejected } from '../testing.ts';
import { pew_api } from './rest.ts';

describe('pew_api', () => {
  it('defaults: off, port 8443 with encryption, all client addresses', () => {
    const d = defaultsOf(pew_api);
    expect(d).toEqual({
      api_enable: false,
      ip1: '0.0.0.0',
      ip2: '0.0.0.0',
      http_port: 8443,
      http_server: false,
      use_encryption: true,
      use_cors: false,
      api_key: '',
      keyless_writes: false,
      write_areas: '',
      host_names: '',
    });
    expectAccepted(pew_api, () => {});
    expect(pew_api.passwords).toEqual(['api_key']);
  });

  it('the port is in use while the API or the file server is on', () => {
    expect(pew_api.ports!(defaultsOf(pew_api))).toEqual([]);
    expect(pew_api.ports!({ ...defaultsOf(pew_api), api_enable: true })).toEqual([{ path: 'http_port', port: 8443 }]);
    expect(pew_api.ports!({ ...defaultsOf(pew_api), http_server: true, http_port: 9443 })).toEqual([{ path: 'http_port', port: 9443 }]);
  });

  it('listening port 1025-65535, never an unallowed port (spec §5)', () => {
    expectRange(pew_api, (x, n) => (x.http_port = n), 'http_port', 1025, 65535);
    for (const p of [3000, 8000, 8080, 8081, 5900]) expectRejected(pew_api, (x) => (x.http_port = p), 'http_port', 'port_unallowed');
  });

  it('client range: end not below start, all-addresses form allowed (spec §5)', () => {
    expectAccepted(pew_api, (x) => Object.assign(x, { ip1: '192.168.1.10', ip2: '192.168.1.10' }));
    expectAccepted(pew_api, (x) => Object.assign(x, { ip1: '0.0.0.0', ip2: '255.255.255.255' }));
    expectRejected(pew_api, (x) => Object.assign(x, { ip1: '192.168.1.10', ip2: '192.168.1.9' }), 'ip2', 'ip_range');
    expectRejected(pew_api, (x) => Object.assign(x, { ip1: '10.0.0.1', ip2: '0.0.0.0' }), 'ip2', 'ip_range');
    expectRejected(pew_api, (x) => (x.ip1 = '192.168.1'), 'ip1', 'invalid_ip');
  });

  it('API key: empty, or 16-128 visible characters; host names: names separated by commas or spaces (security.md HOST-1)', () => {
    expectAccepted(pew_api, (x) => (x.api_key = 'x'.repeat(16)));
    expectAccepted(pew_api, (x) => (x.api_key = 'x'.repeat(128)));
    expectRejected(pew_api, (x) => (x.api_key = 'x'.repeat(15)), 'api_key', 'too_short');
    expectRejected(pew_api, (x) => (x.api_key = 'x'.repeat(129)), 'api_key', 'too_long');
    expectRejected(pew_api, (x) => (x.api_key = 'sixteen chars wi th space'), 'api_key', 'invalid_characters');
    expectAccepted(pew_api, (x) => (x.host_names = 'gw.plant.example, gw2 10.0.0.5'));
    expectRejected(pew_api, (x) => (x.host_names = 'gw.plant.example, http://x'), 'host_names', 'invalid_host');
  });

  it('keyless writes off and no writable area by default; write_areas checked entry by entry (security.md REST-1, REST-2)', () => {
    expectAccepted(pew_api, (x) => Object.assign(x, { keyless_writes: true, write_areas: 'DT100-199, WR0-3 WY5' }));
    expectRejected(pew_api, (x) => (x.write_areas = 'DT100-199, D5'), 'write_areas', 'invalid_write_area', { entry: 'D5' });
    expectRejected(pew_api, (x) => (x.write_areas = 'WX0'), 'write_areas', 'invalid_value');
    expectRejected(pew_api, (x) => (x.write_areas = 'DT0-999425'), 'write_areas', 'address_out_of_range', { min: 0, max: 999424 });
    expectRejected(pew_api, (x) => (x.write_areas = 'DT9-1'), 'write_areas', 'start_after_end');
    expectRejected(pew_api, (x) => (x.write_areas = 'DT1'.padEnd(257, ' ')), 'write_areas', 'too_long');
    expectRejected(pew_api, (x) => (x.keyless_writes = 'yes'), 'keyless_writes', 'type');
  });

  it('client range required while the port is open', () => {
    expectAccepted(pew_api, (x) => (x.ip1 = ''));
    expectRejected(pew_api, (x) => Object.assign(x, { api_enable: true, ip1: '' }), 'ip1', 'required');
    expectRejected(pew_api, (x) => Object.assign(x, { http_server: true, ip2: '' }), 'ip2', 'required');
  });
});
