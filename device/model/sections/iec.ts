// IEC 60870-5-104 server (spec §3 "IEC 60870 (pew_60870)", §5 IEC rules, §9 IEC; mewtocol.md §9).
import * as v from 'valibot';
import { ipRangeIssues } from '../common.ts';
import { bool, choice, int, ipText, list, listenPort, obj } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { AREA_MAX, DT_MAX } from '../plc.ts';
import { defineSection } from '../section.ts';

export const IEC_PORT = 2404; // spec §9, mewtocol.md §9
export const MAX_CONNECTIONS = 4; // spec §9: connections 4
export const CONTROL_BUFFER = 26; // spec §9: control buffer 26 registers
export const MONITOR_DEPTH_MAX = 32765; // spec §9: monitor depth 32765
// the ring buffer's layout (device/model/blocks/iec104.ts, docs/iec104.md "The PLC side"): the
// write index word, then records of 5 words; a depth below this holds no record
export const MONITOR_RECORD_WORDS = 5;
export const MONITOR_DEPTH_MIN = 1 + MONITOR_RECORD_WORDS;
// the PLC areas the buffers may live in: the data-register areas of spec §3
export const IEC_AREAS = ['DT', 'FL', 'LD'] as const;

export const connectionSchema = obj({
  area: choice(IEC_AREAS, 'DT'),
  // buffers in the PLC (start registers); defaults clear of the service control defaults of spec §9
  plc_buffer_rbm: int(0, DT_MAX, 1000), // read-back of the monitor buffer (handshake word)
  plc_buffer_m: int(0, DT_MAX, 1010), // monitor direction buffer (the ring of events)
  // spec §9: monitor depth 32765; the default holds 100 records (1 + 100 × 5 words). The schema
  // keeps 1 as its floor (a stored entry still loads); the rule below asks for one record at least
  plc_buffer_m_depth: int(1, MONITOR_DEPTH_MAX, 1 + 100 * MONITOR_RECORD_WORDS),
  plc_buffer_c: int(0, DT_MAX, 1520), // control direction buffer, CONTROL_BUFFER registers, after the default ring (DT1010-DT1510)
  // IEC 60870-5-104 §9.6 defaults: t1 15 s, t2 10 s, t3 20 s, k 12, w 8
  t1: int(1, 255, 15), // spec §9: t timers 255
  t2: int(1, 255, 10),
  t3: int(1, 255, 20),
  k: int(2, 14, 12), // spec §5/§9: k < 15 (max 14); w >= 1 under w <= 2/3 k needs k >= 2
  w: int(1, 13, 8), // spec §5/§9: w max 13
  testfrm_in_stop_dt: bool(true), // answer/send TESTFR while data transfer is stopped
  testfrm_in_start_dt: bool(true),
  timeout: int(5, 65535, 1000), // spec §9: IEC timeout 5-65535 (ms, like plc_poll)
  lock_mode: bool(false), // only one client of the group may be started at a time
  ip1: ipText('0.0.0.0'), // spec §5: 0.0.0.0 - 0.0.0.0/255.255.255.255 accepts all
  ip2: ipText('0.0.0.0'),
});
export type IecConnection = v.InferOutput<typeof connectionSchema>;

export const iecSchema = obj({
  enable_60870: bool(false),
  asdu_address: int(1, 65535, 1), // spec §9: ASDU 1-65535
  asdu_structured: bool(false), // shown as two octets of 0-255 each (spec §9: structured 255)
  expert_mode: bool(false),
  originator: int(0, 255, 0), // spec §9: originator 255; mewtocol.md §9: default 0
  port: listenPort(IEC_PORT),
  plc_poll: int(5, 65535, 100), // spec §9: IEC poll 5-65535 ms
  plc_reconnect_reset: bool(false), // drop the IEC connections when the PLC link is re-established
  plc_live_check: bool(true), // mewtocol.md §9: close connections when the PLC is not running
  connections: list(connectionSchema, MAX_CONNECTIONS, [v.getDefaults(connectionSchema) as IecConnection]),
});
export type Iec = v.InferOutput<typeof iecSchema>;

function bufferRules(c: IecConnection, at: string): Issue[] {
  const out: Issue[] = [];
  const max = AREA_MAX[c.area];
  const blocks = [
    ['plc_buffer_rbm', c.plc_buffer_rbm, 1],
    ['plc_buffer_m', c.plc_buffer_m, c.plc_buffer_m_depth],
    ['plc_buffer_c', c.plc_buffer_c, CONTROL_BUFFER],
  ] as const;
  for (const [f, start, len] of blocks) if (start + len - 1 > max) out.push(issue(`${at}.${f}`, 'address_out_of_range', { min: 0, max: max - len + 1 }));
  if (out.length) return out;
  blocks.forEach(([f, start, len], i) => {
    for (const [g, s, l] of blocks.slice(0, i))
      if (start <= s + l - 1 && s <= start + len - 1) {
        out.push(issue(`${at}.${f}`, 'addresses_overlap', { other: `${at}.${g}` }));
        break;
      }
  });
  return out;
}

function connectionRules(c: IecConnection, i: number): Issue[] {
  const at = `connections.${i}`;
  const out: Issue[] = [];
  if (c.t2 >= c.t1) out.push(issue(`${at}.t2`, 'iec_t2_t1')); // spec §5: t2 < t1
  if (c.t1 >= c.t3) out.push(issue(`${at}.t3`, 'iec_t1_t3')); // spec §5: t1 < t3
  if (3 * c.w > 2 * c.k) out.push(issue(`${at}.w`, 'iec_w_k', { max: Math.floor((2 * c.k) / 3) })); // spec §5: w <= 2/3 k
  out.push(...ipRangeIssues(c.ip1, c.ip2, `${at}.ip1`, `${at}.ip2`, true));
  // the ring buffer's write index and one record of 5 words (docs/iec104.md "The PLC side")
  if (c.plc_buffer_m_depth < MONITOR_DEPTH_MIN) out.push(issue(`${at}.plc_buffer_m_depth`, 'iec_monitor_depth', { min: MONITOR_DEPTH_MIN }));
  out.push(...bufferRules(c, at));
  return out;
}

function rules(s: Iec): Issue[] {
  const out = s.connections.flatMap(connectionRules);
  if (s.enable_60870 && s.connections.length === 0) out.push(issue('connections', 'required'));
  return out;
}

export const pew_60870 = defineSection({
  key: 'pew_60870',
  index: 9,
  schema: iecSchema,
  passwords: [],
  rules,
  ports: (s) => (s.enable_60870 ? [{ path: 'port', port: s.port }] : []),
});
