import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectRange, expectRejected } from '../testing.ts';
import { pew_60870 } from './iec.ts';

const C = 'connections.0';

describe('pew_60870', () => {
  it('defaults: off, port 2404, originator 0, one connection with the 104 timers (spec §9, mewtocol.md §9)', () => {
    const d = defaultsOf(pew_60870);
    expect(d).toMatchObject({ enable_60870: false, port: 2404, originator: 0, asdu_address: 1, plc_poll: 100 });
    expect(d.connections).toHaveLength(1);
    expect(d.connections[0]).toMatchObject({ t1: 15, t2: 10, t3: 20, k: 12, w: 8, ip1: '0.0.0.0', ip2: '0.0.0.0', area: 'DT' });
    expectAccepted(pew_60870, () => {});
    expectAccepted(pew_60870, (x) => (x.enable_60870 = true));
  });

  it('ASDU 1-65535, originator 0-255, poll and timeout 5-65535 (spec §9)', () => {
    expectRange(pew_60870, (x, n) => (x.asdu_address = n), 'asdu_address', 1, 65535);
    expectRange(pew_60870, (x, n) => (x.originator = n), 'originator', 0, 255);
    expectRange(pew_60870, (x, n) => (x.plc_poll = n), 'plc_poll', 5, 65535);
    expectRange(pew_60870, (x, n) => (x.connections[0].timeout = n), `${C}.timeout`, 5, 65535);
  });

  it('listening port: 1025-65535, not an unallowed port (spec §5)', () => {
    expectRange(pew_60870, (x, n) => (x.port = n), 'port', 1025, 65535);
    expectRejected(pew_60870, (x) => (x.port = 8080), 'port', 'port_unallowed');
  });

  it('reports its port only when enabled', () => {
    const d = defaultsOf(pew_60870);
    expect(pew_60870.ports!(d)).toEqual([]);
    expect(pew_60870.ports!({ ...d, enable_60870: true })).toEqual([{ path: 'port', port: 2404 }]);
  });

  it('at most 4 connections (spec §9); enabled needs one', () => {
    expectAccepted(pew_60870, (x) => (x.connections = [0, 1, 2, 3].map(() => ({}))));
    expectRejected(pew_60870, (x) => (x.connections = [0, 1, 2, 3, 4].map(() => ({}))), 'connections', 'too_many', { max: 4 });
    expectAccepted(pew_60870, (x) => (x.connections = []));
    expectRejected(pew_60870, (x) => Object.assign(x, { enable_60870: true, connections: [] }), 'connections', 'required');
  });

  it('timers 1-255, k 2-14, w 1-13 (spec §9)', () => {
    // each timer at its schema limits, the others chosen so that t2 < t1 < t3 holds
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { t1: 2, t2: 1, t3: 255 }));
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { t1: 254, t2: 253, t3: 255 }));
    for (const t of ['t1', 't2', 't3']) {
      expectRejected(pew_60870, (x) => (x.connections[0][t] = 0), `${C}.${t}`, 'out_of_range', { min: 1, max: 255 });
      expectRejected(pew_60870, (x) => (x.connections[0][t] = 256), `${C}.${t}`, 'out_of_range', { min: 1, max: 255 });
    }
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { k: 14, w: 9 }));
    expectRejected(pew_60870, (x) => (x.connections[0].k = 15), `${C}.k`, 'out_of_range', { min: 2, max: 14 });
    expectRejected(pew_60870, (x) => (x.connections[0].k = 1), `${C}.k`, 'out_of_range', { min: 2, max: 14 });
    expectRejected(pew_60870, (x) => (x.connections[0].w = 14), `${C}.w`, 'out_of_range', { min: 1, max: 13 });
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { k: 2, w: 1 }));
    expectRejected(pew_60870, (x) => (x.connections[0].w = 0), `${C}.w`, 'out_of_range', { min: 1, max: 13 });
  });

  it('t2 < t1 < t3 (spec §5)', () => {
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { t1: 15, t2: 14, t3: 16 }));
    expectRejected(pew_60870, (x) => (x.connections[0].t2 = 15), `${C}.t2`, 'iec_t2_t1');
    expectRejected(pew_60870, (x) => (x.connections[0].t3 = 15), `${C}.t3`, 'iec_t1_t3');
  });

  it('w <= 2/3 of k (spec §5)', () => {
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { k: 12, w: 8 }));
    expectRejected(pew_60870, (x) => Object.assign(x.connections[0], { k: 12, w: 9 }), `${C}.w`, 'iec_w_k', { max: 8 });
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { k: 13, w: 8 }));
    expectRejected(pew_60870, (x) => Object.assign(x.connections[0], { k: 14, w: 10 }), `${C}.w`, 'iec_w_k', { max: 9 });
  });

  it('client IP range: end not below start; the all-addresses form (spec §5)', () => {
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { ip1: '10.0.0.5', ip2: '10.0.0.5' }));
    expectRejected(pew_60870, (x) => Object.assign(x.connections[0], { ip1: '10.0.0.5', ip2: '10.0.0.4' }), `${C}.ip2`, 'ip_range');
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { ip1: '0.0.0.0', ip2: '255.255.255.255' }));
    expectRejected(pew_60870, (x) => (x.connections[0].ip1 = '10.0.0.256'), `${C}.ip1`, 'invalid_ip');
  });

  it('buffers: monitor depth 6-32765, control buffer of 26, inside the area, not overlapping (spec §9)', () => {
    const fl = (x: any, extra: object) => Object.assign(x.connections[0], { area: 'FL', plc_buffer_rbm: 0, plc_buffer_m: 1, plc_buffer_c: 32740, ...extra });
    expectAccepted(pew_60870, (x) => fl(x, { plc_buffer_m_depth: 6 }));
    expectRejected(pew_60870, (x) => (x.connections[0].plc_buffer_m_depth = 0), `${C}.plc_buffer_m_depth`, 'out_of_range', { min: 1, max: 32765 });
    expectAccepted(pew_60870, (x) =>
      Object.assign(x.connections[0], { area: 'DT', plc_buffer_rbm: 0, plc_buffer_c: 1, plc_buffer_m: 27, plc_buffer_m_depth: 32765 }),
    );
    expectAccepted(pew_60870, (x) => fl(x, { plc_buffer_m_depth: 32739 }));
    expectRejected(pew_60870, (x) => (x.connections[0].plc_buffer_m_depth = 32766), `${C}.plc_buffer_m_depth`, 'out_of_range', { min: 1, max: 32765 });
    expectAccepted(pew_60870, (x) => fl(x, { plc_buffer_c: 32765 - 25 }));
    expectRejected(pew_60870, (x) => fl(x, { plc_buffer_c: 32765 - 24 }), `${C}.plc_buffer_c`, 'address_out_of_range', { min: 0, max: 32740 });
    expectRejected(pew_60870, (x) => fl(x, { plc_buffer_m: 32700, plc_buffer_m_depth: 100 }), `${C}.plc_buffer_m`, 'address_out_of_range', {
      min: 0,
      max: 32666,
    });
    expectRejected(
      pew_60870,
      (x) => Object.assign(x.connections[0], { plc_buffer_m_depth: 100, plc_buffer_c: 1109 }),
      `${C}.plc_buffer_c`,
      'addresses_overlap',
      {
        other: `${C}.plc_buffer_m`,
      },
    );
    expectAccepted(pew_60870, (x) => Object.assign(x.connections[0], { plc_buffer_m_depth: 100, plc_buffer_c: 1110 }));
    expectRejected(pew_60870, (x) => Object.assign(x.connections[0], { plc_buffer_m: 1000 }), `${C}.plc_buffer_m`, 'addresses_overlap', {
      other: `${C}.plc_buffer_rbm`,
    });
    expectRejected(pew_60870, (x) => (x.connections[0].area = 'WR'), `${C}.area`, 'invalid_value');
  });

  it('the monitor ring holds one record at least: depth 6 = the write index and one 5-word record', () => {
    const fl = (x: any, depth: number) =>
      Object.assign(x.connections[0], { area: 'FL', plc_buffer_rbm: 0, plc_buffer_m: 1, plc_buffer_c: 100, plc_buffer_m_depth: depth });
    for (const depth of [1, 2, 5]) expectRejected(pew_60870, (x) => fl(x, depth), `${C}.plc_buffer_m_depth`, 'iec_monitor_depth', { min: 6 });
    expectAccepted(pew_60870, (x) => fl(x, 6));
  });

  it('the defaults: a ring of 100 records (501 words) clear of the read index and the command buffer', () => {
    const c = defaultsOf(pew_60870).connections[0]!;
    expect(c.plc_buffer_m_depth).toBe(501);
    expectAccepted(pew_60870, () => {});
  });

  it('unknown keys are refused', () => {
    expectRejected(pew_60870, (x) => (x.connections[0].t0 = 30), `${C}.t0`, 'unknown_key');
  });
});
