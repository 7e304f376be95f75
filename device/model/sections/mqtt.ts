// MQTT client (spec §3 "MQTT (pew_mqtt)", §9 control register 260 + 34).
import type * as v from 'valibot';
import { certName, controlRegister, hostUrl, TLS_VERSIONS } from '../common.ts';
import { bool, choice, int, num, obj, secret, text } from '../fields.ts';
import { type Issue, issue } from '../issues.ts';
import { defineSection } from '../section.ts';

export const MQTT_REGISTERS = 34; // spec §9: MQTT control register offset

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
});
export type Mqtt = v.InferOutput<typeof mqttSchema>;

function rules(m: Mqtt): Issue[] {
  return m.enable_mqtt && m.broker_addr === '' ? [issue('broker_addr', 'required')] : [];
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
