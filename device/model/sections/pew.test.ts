import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { defaultsOf } from '../section.ts';
import { expectAccepted, expectRange, expectRejected } from '../testing.ts';
import { pew, pewSchema } from './pew.ts';

describe('pew (COM)', () => {
  it('defaults pass their own schema and follow spec §3', () => {
    const d = defaultsOf(pew);
    expect(v.safeParse(pewSchema, d).success).toBe(true);
    expect(d.interfaces.map((i) => i.id)).toEqual([0, 3, 1, 4, 5]);
    expect(d.interfaces.map((i) => i.name)).toEqual(['COM1', 'COM2', 'COM3', 'INTERNAL', 'COM4']);
    const internal = d.interfaces[3]!;
    expect(internal.enabled && internal.protocol === 'MODBUS').toBe(true);
    expect(d.interfaces.filter((i) => i.enabled)).toHaveLength(1);
    expect(d.interfaces[4]!.addr_offset).toBe(-32768);
    expectAccepted(pew, () => {});
  });

  it('interface timeout 50-60000 ms (spec §9)', () => {
    expectRange(pew, (x, n) => (x.interfaces[0].timeout = n), 'interfaces.0.timeout', 50, 60000);
  });

  it('address offset -255..255 or the disabled value -32768 (spec §9)', () => {
    expectRange(pew, (x, n) => (x.interfaces[4].addr_offset = n), 'interfaces.4.addr_offset', -255, 255);
    expectAccepted(pew, (x) => (x.interfaces[4].addr_offset = -32768));
  });

  it('baud rates 230400 down to 1200 only', () => {
    expectAccepted(pew, (x) => (x.interfaces[0].baudrate = 230400));
    expectAccepted(pew, (x) => (x.interfaces[0].baudrate = 1200));
    expectRejected(pew, (x) => (x.interfaces[0].baudrate = 600), 'interfaces.0.baudrate', 'invalid_value');
    expectRejected(pew, (x) => (x.interfaces[0].baudrate = 460800), 'interfaces.0.baudrate', 'invalid_value');
  });

  it('protocols MEWTOCOL, MEWTOCOL7, MODBUS; INTERNAL speaks Modbus only', () => {
    expectAccepted(pew, (x) => (x.interfaces[0].protocol = 'MEWTOCOL7'));
    expectRejected(pew, (x) => (x.interfaces[0].protocol = 'PROFIBUS'), 'interfaces.0.protocol', 'invalid_value');
    expectRejected(pew, (x) => (x.interfaces[3].protocol = 'MEWTOCOL'), 'interfaces.3.protocol', 'invalid_value');
  });

  it('RS485 mode (5) only on COM2', () => {
    expectAccepted(pew, (x) => (x.interfaces[1].mode = 1));
    expectRejected(pew, (x) => (x.interfaces[0].mode = 5), 'interfaces.0.mode', 'invalid_value');
  });

  it('exactly five interfaces, each id once', () => {
    expectRejected(pew, (x) => x.interfaces.pop(), 'interfaces', 'invalid_value');
    expectRejected(pew, (x) => (x.interfaces[1].id = 0), 'interfaces.1.id', 'duplicate');
    expectRejected(pew, (x) => x.interfaces.push(x.interfaces[0]), 'interfaces', 'too_many', { max: 5 });
  });

  it('station number 0-99 and restart hours 0-500 (spec §9)', () => {
    expectRange(pew, (x, n) => (x.address_plc = n), 'address_plc', 0, 99);
    expectRange(pew, (x, n) => (x.restart_by_time = n), 'restart_by_time', 0, 500);
    expectRange(pew, (x, n) => (x.restart_polling = n), 'restart_polling', 1, 120, 0.5);
  });

  it('Ethernet interface needs a dotted quad and port when enabled', () => {
    expectRejected(pew, (x) => (x.interfaces[4].enabled = true), 'interfaces.4.ip_port', 'required');
    expectAccepted(pew, (x) => Object.assign(x.interfaces[4], { enabled: true, ip_port: '192.168.1.5:9094' }));
    expectAccepted(pew, (x) => (x.interfaces[4].ip_port = '255.255.255.255:65535'));
    expectRejected(pew, (x) => (x.interfaces[4].ip_port = '256.1.1.1:9094'), 'interfaces.4.ip_port', 'invalid_ip');
    expectRejected(pew, (x) => (x.interfaces[4].ip_port = '10.0.0.1:65536'), 'interfaces.4.ip_port', 'invalid_ip');
  });

  it('restart by PLC needs a valid control flag (bit address of spec §5)', () => {
    expectRejected(pew, (x) => (x.restart_by_plc = true), 'restart_control_r.bit', 'required');
    expectAccepted(pew, (x) => Object.assign(x, { restart_by_plc: true, restart_control_r: { area: 'R', bit: '999F' } }));
    expectRejected(pew, (x) => (x.restart_control_r.bit = '1A0'), 'restart_control_r.bit', 'invalid_bit_address');
    expectRejected(pew, (x) => (x.restart_control_r.bit = '10G'), 'restart_control_r.bit', 'invalid_bit_address');
  });

  it('unknown keys are refused', () => {
    expectRejected(pew, (x) => (x.extra = 1), 'extra', 'unknown_key');
    expectRejected(pew, (x) => (x.interfaces[0].extra = 1), 'interfaces.0.extra', 'unknown_key');
  });
});
