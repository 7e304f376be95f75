// Helpers for the station's tests: a started station with known settings, requests built from the
// codec, and the actions decoded back so that tests assert fields as well as octets.

import { expect } from 'vitest';
import { ASDU_MAX_LENGTH, octetsHex } from '../protocol/iec104/apci.ts';
import { ASDU_HEADER, type Asdu, decodeAsdu, decodeHeader, encodeAsdu, type InfoObject } from '../protocol/iec104/asdu.ts';
import { COT } from '../protocol/iec104/cot.ts';
import type { ElementValue } from '../protocol/iec104/elements.ts';
import type { MonitorPoint } from './points.ts';
import { Iec104Station, type StationAction, type StationSettings } from './station.ts';

export const SETTINGS: StationSettings = { asduAddress: 1, originator: 9, group: 2, confirmTimeout: 2_100 };
/** The unit's wall clock in the tests: 2026-05-12 10:30:00 UTC. */
export const WALL = Date.UTC(2026, 4, 12, 10, 30, 0);

export const hex = octetsHex;
export const octets = (s: string): Uint8Array => Uint8Array.from(s.split(' ').map((x) => Number.parseInt(x, 16)));

/** A station after start(), its end of initialization taken. */
export function station(settings: Partial<StationSettings> = {}): Iec104Station<string> {
  const s = new Iec104Station<string>({ ...SETTINGS, ...settings });
  s.start(0, WALL);
  return s;
}

/** A request of the control station: activation, originator 3, common address 1 unless given. */
export function request(type: number, objects: InfoObject[], over: Partial<Omit<Asdu, 'type' | 'objects'>> = {}): Uint8Array {
  return encodeAsdu({ type, sq: false, cot: { cause: COT.activation, negative: false, test: false }, originator: 3, ca: 1, objects, ...over });
}
export const cause = (c: number, negative = false, test = false) => ({ cause: c, negative, test });

export const point = (type: MonitorPoint['type'], ioa: number, element: ElementValue, group = 0, at = WALL): MonitorPoint => ({
  type,
  ioa,
  element,
  group,
  at,
});
export const sp = (ioa: number, value: boolean, group = 0) => point(1, ioa, { kind: 'siq', value, quality: 0 }, group);
export const counter = (ioa: number, value: number, group = 0) =>
  point(15, ioa, { kind: 'bcr', value, sequence: 0, carry: false, adjusted: false, invalid: false }, group);

/** The ASDUs of the to_connection actions, decoded, with the connection each goes to. */
export function answers(actions: StationAction<string>[]): { connection: string; asdu: Asdu }[] {
  return actions.flatMap((a) => (a.kind === 'to_connection' ? [{ connection: a.connection, asdu: decoded(a.asdu) }] : []));
}
/** The spontaneous ASDUs of the event actions, decoded. */
export function events(actions: StationAction<string>[]): Asdu[] {
  return actions.flatMap((a) => (a.kind === 'event' ? [decoded(a.asdu)] : []));
}
export const kinds = (actions: StationAction<string>[]) => actions.map((a) => a.kind);

export function decoded(b: Uint8Array): Asdu {
  const d = decodeAsdu(b);
  if (!d.ok) throw new Error(`not a decodable ASDU: ${octetsHex(b)} (${d.error.code})`);
  return d.value;
}

/** Every action has the shape its kind promises: answers go to the connection that asked, ASDUs have
 * a header and fit in an I-frame, what the station builds itself decodes, deadlines are numbers. */
export function expectWellFormed(actions: StationAction<string>[], from: string, request?: Uint8Array): void {
  for (const a of actions) {
    switch (a.kind) {
      case 'to_connection': {
        expect(a.connection).toBe(from);
        expect(a.asdu.length).toBeGreaterThanOrEqual(ASDU_HEADER);
        expect(a.asdu.length).toBeLessThanOrEqual(ASDU_MAX_LENGTH);
        const h = decodeHeader(a.asdu);
        expect(h?.cot.cause).toBeOneOf([5, 7, 9, 10, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 44, 45, 46, 47]);
        // a negative answer may mirror a request that does not decode (unknown type, bad time):
        // then it is that request with the cause changed; every other answer decodes
        const mirrored = h?.cot.negative === true && request !== undefined && hex(a.asdu.slice(ASDU_HEADER)) === hex(request.slice(ASDU_HEADER));
        if (!mirrored) expect(decodeAsdu(a.asdu).ok).toBe(true);
        break;
      }
      case 'event':
        expect(decodeAsdu(a.asdu).ok).toBe(true);
        break;
      case 'close':
        expect(a.connection).toBe(from);
        expect(a.reason.length).toBeGreaterThan(0);
        break;
      case 'set_clock':
        expect(Number.isInteger(a.epochMs)).toBe(true);
        break;
      case 'plc_command':
        expect(a.command.seq).toBeGreaterThanOrEqual(1);
        expect(a.command.seq).toBeLessThanOrEqual(0xffff);
        break;
      case 'timer':
        if (a.at !== null) expect(Number.isFinite(a.at)).toBe(true);
        break;
    }
  }
}
