// TCP port redirection and the Modbus/TCP gateway (spec §3 "Port (pew_redirect)", §5, §9).
import type * as v from 'valibot';
import { ipRangeIssues } from '../common.ts';
import { bool, choice, int, ipText, list, listenPort, obj, PORT_MAX, PORT_MIN } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { ACCESS_RIGHTS, AREA_MAX, INTERFACE_IDS, MODBUS_ADDRESS_MAX, WORD_AREAS, type WordArea } from '../plc.ts';
import { defineSection } from '../section.ts';

export const MAX_THREADS = 10; // spec §9: port entries 10
export const MAX_RESTRICTIONS = 10; // spec §9: restrictions 10
export const DEFAULT_PORT = 9094; // spec §9
export const MODBUS_PORT = 502; // spec §9

// Modbus table a restriction appears as through the gateway: holding registers (FC 3/6/16),
// input registers (FC 4), coils (FC 1/5/15), discrete inputs (FC 2)
export const MAPPING_TYPES = [0, 1, 2, 3] as const;
export const COIL = 2;
export const DISCRETE = 3;
// bit tables reach the relays of these word areas (Y, R, L and X bits; mewtocol.md §8)
const BIT_AREAS: Record<number, readonly WordArea[]> = { [COIL]: ['WY', 'WR', 'WL'], [DISCRETE]: ['WX', 'WY', 'WR', 'WL'] };

export const restrictionSchema = obj({
  type: choice(MAPPING_TYPES, 0),
  register_area_start: int(0, AREA_MAX.DT, 0),
  register_area_end: int(0, AREA_MAX.DT, 0),
  register_area_mapped: int(0, MODBUS_ADDRESS_MAX, 0),
  area: choice(WORD_AREAS, 'DT'),
  read_write: choice(ACCESS_RIGHTS, 'RO'),
});
export type Restriction = v.InferOutput<typeof restrictionSchema>;

export const threadSchema = obj({
  port: listenPort(DEFAULT_PORT, undefined, [MODBUS_PORT]),
  mb_translation: bool(false), // the thread is a Modbus/TCP gateway
  monitoring_cmd: bool(true), // status and monitoring commands pass
  service: choice(INTERFACE_IDS, 0), // the interface the thread serves
  clients: int(1, 16, 4), // spec §9: clients 1-16
  timeout: int(1, 600, 60), // spec §9: port timeout 1-600 s
  ip_start: ipText('0.0.0.0'),
  ip_end: ipText('0.0.0.0'),
  mapping: list(restrictionSchema, MAX_RESTRICTIONS),
});
export type Thread = v.InferOutput<typeof threadSchema>;

/** A thread's clients speak Modbus/TCP: the gateway, or a thread on a Modbus interface (`protocolOf` an interface id). */
export const speaksModbus = (t: Pick<Thread, 'mb_translation' | 'service'>, protocolOf: (id: number) => string | undefined): boolean =>
  t.mb_translation || protocolOf(t.service) === 'MODBUS';

export const redirectSchema = obj({
  threads: list(threadSchema, MAX_THREADS), // security.md LF-1: no thread until the technician adds one
});
export type Redirect = v.InferOutput<typeof redirectSchema>;

/** Width of a restriction in Modbus addresses: words, or 16 bits per word for bit tables. */
export function mappedWidth(r: Restriction): number {
  const words = r.register_area_end - r.register_area_start + 1;
  return r.type === COIL || r.type === DISCRETE ? words * 16 : words;
}

const overlaps = (a0: number, a1: number, b0: number, b1: number) => a0 <= b1 && b0 <= a1;

/** `gateway`: the entry publishes Modbus addresses (mb_translation), so its table and mapped range must fit. */
function restrictionRules(r: Restriction, at: string, gateway: boolean): Issue[] {
  const out: Issue[] = [];
  const max = AREA_MAX[r.area];
  if (r.register_area_start > r.register_area_end) out.push(issue(`${at}.register_area_start`, 'start_after_end'));
  for (const f of ['register_area_start', 'register_area_end'] as const) if (r[f] > max) out.push(issue(`${at}.${f}`, 'address_out_of_range', { min: 0, max }));
  if (!gateway) return out;
  const bit = BIT_AREAS[r.type];
  if (bit && !bit.includes(r.area)) out.push(issue(`${at}.area`, 'areas_mismatch', { allowed: bit }));
  if (r.register_area_start <= r.register_area_end && r.register_area_mapped + mappedWidth(r) - 1 > MODBUS_ADDRESS_MAX)
    out.push(issue(`${at}.register_area_mapped`, 'address_out_of_range', { min: 0, max: MODBUS_ADDRESS_MAX - mappedWidth(r) + 1 }));
  return out;
}

function threadRules(t: Thread, i: number): Issue[] {
  const at = `threads.${i}`;
  const out: Issue[] = ipRangeIssues(t.ip_start, t.ip_end, `${at}.ip_start`, `${at}.ip_end`, true);
  // spec §9 "Modbus 502": below the range of §5 only for a Modbus/TCP gateway thread
  if (t.port === MODBUS_PORT && !t.mb_translation) out.push(issue(`${at}.port`, 'port_modbus_only', { port: MODBUS_PORT, min: PORT_MIN, max: PORT_MAX }));
  t.mapping.forEach((r, j) => {
    const rat = `${at}.mapping.${j}`;
    const own = restrictionRules(r, rat, t.mb_translation);
    out.push(...own);
    if (own.length) return;
    for (let k = 0; k < j; k++) {
      const o = t.mapping[k]!;
      // BLK may overlay a grant (it wins); two grants on the same words are ambiguous
      if (
        o.area === r.area &&
        o.read_write !== 'BLK' &&
        r.read_write !== 'BLK' &&
        overlaps(o.register_area_start, o.register_area_end, r.register_area_start, r.register_area_end)
      ) {
        out.push(issue(`${rat}.register_area_start`, 'addresses_overlap', { other: `${at}.mapping.${k}` }));
        break;
      }
      // on a gateway, two entries cannot answer for the same Modbus address
      if (
        t.mb_translation &&
        o.type === r.type &&
        r.read_write !== 'BLK' &&
        o.read_write !== 'BLK' &&
        overlaps(o.register_area_mapped, o.register_area_mapped + mappedWidth(o) - 1, r.register_area_mapped, r.register_area_mapped + mappedWidth(r) - 1)
      ) {
        out.push(issue(`${rat}.register_area_mapped`, 'addresses_overlap', { other: `${at}.mapping.${k}` }));
        break;
      }
    }
  });
  return out;
}

export const pew_redirect = defineSection({
  key: 'pew_redirect',
  index: 2,
  schema: redirectSchema,
  passwords: [],
  rules: (r) => r.threads.flatMap(threadRules),
  ports: (r) => r.threads.map((t, i) => ({ path: `threads.${i}.port`, port: t.port })),
});
