import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectRange, expectRejected } from '../testing.ts';
import { pew_redirect } from './redirect.ts';

const T = 'threads.0';
const withThread =
  (extra: object = {}) =>
  (x: any) =>
    (x.threads = [{ port: 9094, ...extra }]);
const grant = (area: string, start: number, end: number, read_write = 'RO', extra: object = {}) => ({
  area,
  register_area_start: start,
  register_area_end: end,
  read_write,
  ...extra,
});

describe('pew_redirect', () => {
  it('defaults: no thread until one is added (security.md LF-1)', () => {
    expect(defaultsOf(pew_redirect)).toEqual({ threads: [] });
    expectAccepted(pew_redirect, withThread());
  });

  it('clients 1-16 and idle timeout 1-600 s (spec §9)', () => {
    expectRange(pew_redirect, (x, n) => withThread({ clients: n })(x), `${T}.clients`, 1, 16);
    expectRange(pew_redirect, (x, n) => withThread({ timeout: n })(x), `${T}.timeout`, 1, 600);
  });

  it('listening port 1025-65535 or Modbus 502, never an unallowed port (spec §5, §9)', () => {
    expectAccepted(pew_redirect, withThread({ port: 1025 }));
    expectAccepted(pew_redirect, withThread({ port: 65535 }));
    expectAccepted(pew_redirect, withThread({ port: 502, mb_translation: true }));
    expectRejected(pew_redirect, withThread({ port: 502, mb_translation: false }), `${T}.port`, 'port_modbus_only', { port: 502, min: 1025, max: 65535 });
    expectRejected(pew_redirect, withThread({ port: 1024 }), `${T}.port`, 'out_of_range', { min: 1025, max: 65535 });
    expectRejected(pew_redirect, withThread({ port: 8080 }), `${T}.port`, 'port_unallowed');
  });

  it('at most 10 threads and 10 restrictions each (spec §9)', () => {
    const threads = (n: number) => (x: any) => (x.threads = Array.from({ length: n }, (_, i) => ({ port: 9100 + i })));
    expectAccepted(pew_redirect, threads(10));
    expectRejected(pew_redirect, threads(11), 'threads', 'too_many', { max: 10 });
    const rules = (n: number) => withThread({ mapping: Array.from({ length: n }, (_, i) => grant('DT', i * 10, i * 10 + 9)) });
    expectAccepted(pew_redirect, rules(10));
    expectRejected(pew_redirect, rules(11), `${T}.mapping`, 'too_many', { max: 10 });
  });

  it('IP range: end not below start, all-addresses form, both given (spec §5)', () => {
    expectAccepted(pew_redirect, withThread({ ip_start: '10.0.0.5', ip_end: '10.0.0.5' }));
    expectRejected(pew_redirect, withThread({ ip_start: '10.0.0.5', ip_end: '10.0.0.4' }), `${T}.ip_end`, 'ip_range');
    expectAccepted(pew_redirect, withThread({ ip_start: '0.0.0.0', ip_end: '255.255.255.255' }));
    expectRejected(pew_redirect, withThread({ ip_start: '', ip_end: '10.0.0.4' }), `${T}.ip_start`, 'required');
    expectRejected(pew_redirect, withThread({ ip_end: '10.0.0.256' }), `${T}.ip_end`, 'invalid_ip');
  });

  it('restrictions: start <= end, within the area (spec §5, §9)', () => {
    expectAccepted(pew_redirect, withThread({ mapping: [grant('WX', 0, 512)] }));
    expectRejected(pew_redirect, withThread({ mapping: [grant('WX', 0, 513)] }), `${T}.mapping.0.register_area_end`, 'address_out_of_range', { max: 512 });
    expectRejected(pew_redirect, withThread({ mapping: [grant('DT', 10, 9)] }), `${T}.mapping.0.register_area_start`, 'start_after_end');
  });

  it('two grants on the same words overlap; BLK may cover a grant', () => {
    expectAccepted(pew_redirect, withThread({ mapping: [grant('DT', 0, 99), grant('DT', 100, 199, 'R/W')] }));
    expectRejected(
      pew_redirect,
      withThread({ mapping: [grant('DT', 0, 99), grant('DT', 99, 199, 'R/W')] }),
      `${T}.mapping.1.register_area_start`,
      'addresses_overlap',
    );
    expectAccepted(pew_redirect, withThread({ mapping: [grant('DT', 0, 99), grant('DT', 50, 60, 'BLK')] }));
    expectAccepted(pew_redirect, withThread({ mapping: [grant('DT', 0, 99), grant('FL', 0, 99)] }));
  });

  it('gateway: Modbus addresses must not overlap, must fit 65535, bit tables need relay areas', () => {
    const gw = (mapping: object[]) => withThread({ mb_translation: true, mapping });
    expectRejected(
      pew_redirect,
      gw([grant('DT', 0, 9), grant('FL', 0, 9, 'RO', { register_area_mapped: 9 })]),
      `${T}.mapping.1.register_area_mapped`,
      'addresses_overlap',
    );
    expectAccepted(pew_redirect, gw([grant('DT', 0, 9), grant('FL', 0, 9, 'RO', { register_area_mapped: 10 })]));
    expectAccepted(pew_redirect, gw([grant('DT', 0, 9, 'RO', { register_area_mapped: 65526 })]));
    expectRejected(pew_redirect, gw([grant('DT', 0, 9, 'RO', { register_area_mapped: 65527 })]), `${T}.mapping.0.register_area_mapped`, 'address_out_of_range');
    // a plain thread publishes no Modbus addresses: a whole area (the wizard's "allow all") is fine
    expectAccepted(pew_redirect, withThread({ mapping: [grant('DT', 0, 999424), grant('WR', 0, 2048, 'R/W', { type: 2 })] }));
    expectRejected(pew_redirect, gw([grant('DT', 0, 999424)]), `${T}.mapping.0.register_area_mapped`, 'address_out_of_range');
    expectAccepted(pew_redirect, gw([grant('WY', 0, 9, 'R/W', { type: 2 })]));
    expectRejected(pew_redirect, gw([grant('DT', 0, 9, 'R/W', { type: 2 })]), `${T}.mapping.0.area`, 'areas_mismatch');
  });
});
