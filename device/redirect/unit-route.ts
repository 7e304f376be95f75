// Where a Modbus/TCP client's unit id goes (issue 15; docs/redirect.md "Unit id"): a thread in front
// of a Modbus line forwards to the unit the client sent (RS485 multi-drop: several slaves on one
// line), unit 0 on an RTU line is a broadcast write (executed by every slave, answered by none); a
// gateway in front of a MEWTOCOL line takes the unit id as the MEWTOCOL station. Pure.
//
//   INTERNAL                      any unit: the unit's own memory
//   Modbus line (RTU or TCP)      1-247 that unit; 255 the interface's own station; 0 broadcast on
//                                 an RTU line (plain threads; a gateway's translated addresses are
//                                 sent to the own station), the own station on TCP; 248-254 exception 0A
//   MEWTOCOL / MEWTOCOL7 line     1-99 that station; 0 and 255 the interface's own station (EE when
//                                 none is set); 100-254 exception 0A

import type { LinkKind, Protocol } from '../com/link-types.ts';
import { MODBUS_EXCEPTION } from '../protocol/index.ts';

export type UnitRoute =
  | { kind: 'station'; station: number } // 0: the link's own station
  | { kind: 'broadcast' }
  | { kind: 'refuse'; exception: number };

const OWN: UnitRoute = { kind: 'station', station: 0 };
const NO_PATH: UnitRoute = { kind: 'refuse', exception: MODBUS_EXCEPTION.GATEWAY_PATH_UNAVAILABLE };

export function routeUnit(unit: number, link: { protocol: Protocol; kind: LinkKind }, gateway: boolean): UnitRoute {
  if (link.kind === 'internal') return OWN;
  if (link.protocol === 'MODBUS') {
    if (unit === 0) return link.kind === 'serial' && !gateway ? { kind: 'broadcast' } : OWN;
    if (unit === 255) return OWN;
    return unit <= 247 ? { kind: 'station', station: unit } : NO_PATH;
  }
  if (unit === 0 || unit === 255) return OWN;
  return unit <= 99 ? { kind: 'station', station: unit } : NO_PATH;
}
