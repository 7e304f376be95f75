// MQTT client (spec §3 "MQTT (pew_mqtt)", §9 control register 260 + 34).
import type * as v from 'valibot';
import { certName, controlRegister, hostUrl, TLS_VERSIONS } from '../common.ts';
import { bool, choice, int, num, obj, pattern, secret, text } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { defineSection } from '../section.ts';

export const MQTT_REGISTERS = 34; // spec §9: MQTT control register offset

/** Sparkplug B ids (group, edge node, device, primary host) are topic levels: at most this many characters. */
export const SPARKPLUG_ID_MAX = 64;
// Sparkplug 3.0 topic-structure-namespace-valid-*-id, intro-*-id-chars: UTF-8 that MQTT allows in a
// topic level, without `/ + #`; no control characters (C0, DEL, C1: MQTT 3.1.1 §1.5.3) and no lone
// surrogate (not UTF-8)
const SPARKPLUG_ID_RE = /^[^/+#\p{Cc}\p{Cs}]+$/u;

/** A Sparkplug id usable as one topic level: 1..64 characters, no `/ + #`, no control characters, well-formed. */
export const isSparkplugId = (s: string): boolean => s.length <= SPARKPLUG_ID_MAX && SPARKPLUG_ID_RE.test(s);

/** An optional Sparkplug id field: empty, or an id (isSparkplugId). */
const sparkplugId = () => text(SPARKPLUG_ID_MAX, '', pattern(SPARKPLUG_ID_RE, 'invalid_characters'));

export const mqttSchema = obj({
  enable_mqtt: bool(false),
  plc_control_dt: controlRegister(260, MQTT_REGISTERS), // spec §9: default 260
  plc_poll: num(0.2, 120, 1), // spec §9: poll time variant with minimum 0.2
  keep_alive: int(0, 65535, 65), // spec §3: default 65 s; 0 turns keep-alive off
  broker_addr: hostUrl(['mqtt', 'mqtts', 'ws', 'wss']),
  broker_user: text(64),
  broker_password: secret(),
  qos: choice([0, 1, 2] as const, 1), // spec §3: default 1
  retain: bool(false),
  ca: certName('ca'),
  client: certName('client'),
  key: certName('key'),
  tls_version: choice(TLS_VERSIONS, 'none'),
  insecure: bool(false), // accept a broker certificate that does not verify
  // Sparkplug B edge node (docs/sparkplug.md) on its own connection to the same broker
  sparkplug_enable: bool(false),
  sparkplug_group_id: sparkplugId(), // required when enabled
  sparkplug_edge_node_id: sparkplugId(), // required when enabled
  sparkplug_device_id: sparkplugId(), // empty: the name of the PLC interface (pew.interface_plc), checked in rules.ts
  sparkplug_primary_host_id: sparkplugId(), // empty: no primary host, births go out once connected
  sparkplug_poll: num(0.2, 120, 1), // seconds between two reads of the metrics (as plc_poll)
});
export type Mqtt = v.InferOutput<typeof mqttSchema>;

function rules(m: Mqtt): Issue[] {
  const out: Issue[] = [];
  if ((m.enable_mqtt || m.sparkplug_enable) && m.broker_addr === '') out.push(issue('broker_addr', 'required'));
  if (m.sparkplug_enable) for (const path of ['sparkplug_group_id', 'sparkplug_edge_node_id'] as const) if (m[path] === '') out.push(issue(path, 'required'));
  return out;
}

export const pew_mqtt = defineSection({
  key: 'pew_mqtt',
  index: 1,
  schema: mqttSchema,
  passwords: ['broker_password'],
  targets: { broker_password: ['broker_addr'] }, // security.md SEC-2: where each password goes
  rules,
  registers: (m) => (m.enable_mqtt ? [{ path: 'plc_control_dt', start: m.plc_control_dt, length: MQTT_REGISTERS }] : []),
});
