import { describe, expect, it } from 'vitest';
import { routeUnit } from './unit-route.ts';

const rtu = { protocol: 'MODBUS' as const, kind: 'serial' as const };
const mbTcp = { protocol: 'MODBUS' as const, kind: 'tcp' as const };
const mew = { protocol: 'MEWTOCOL' as const, kind: 'serial' as const };
const internal = { protocol: 'MODBUS' as const, kind: 'internal' as const };

describe('routeUnit', () => {
  it('Modbus line: the unit the client sent, 0 a broadcast on RTU for plain threads, 255 the own station, 248-254 exception 0A', () => {
    expect(routeUnit(3, rtu, false)).toEqual({ kind: 'station', station: 3 });
    expect(routeUnit(247, rtu, true)).toEqual({ kind: 'station', station: 247 });
    expect(routeUnit(0, rtu, false)).toEqual({ kind: 'broadcast' });
    expect(routeUnit(0, rtu, true)).toEqual({ kind: 'station', station: 0 });
    expect(routeUnit(0, mbTcp, false)).toEqual({ kind: 'station', station: 0 });
    expect(routeUnit(255, rtu, false)).toEqual({ kind: 'station', station: 0 });
    for (const u of [248, 254]) expect(routeUnit(u, rtu, false)).toEqual({ kind: 'refuse', exception: 10 });
  });
  it('MEWTOCOL line: 1-99 the station, 0 and 255 the own station, 100-254 exception 0A', () => {
    expect(routeUnit(1, mew, true)).toEqual({ kind: 'station', station: 1 });
    expect(routeUnit(99, mew, true)).toEqual({ kind: 'station', station: 99 });
    expect(routeUnit(0, mew, true)).toEqual({ kind: 'station', station: 0 });
    expect(routeUnit(255, mew, true)).toEqual({ kind: 'station', station: 0 });
    expect(routeUnit(100, mew, true)).toEqual({ kind: 'refuse', exception: 10 });
  });
  it('INTERNAL: every unit is the unit itself', () => {
    for (const u of [0, 1, 200, 255]) expect(routeUnit(u, internal, false)).toEqual({ kind: 'station', station: 0 });
  });
});
