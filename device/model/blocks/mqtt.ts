// The MQTT client's control block (spec §9 MQTT 34 words, default DT260): a publish on request,
// the connection state, the queue, a birth/last-will status topic and three subscriptions whose
// messages land in PLC areas. docs/services.md shows a worked example.
import { MQTT_REGISTERS } from '../sections/mqtt.ts';
import { headWords, pointerWords } from './common-words.ts';
import type { BlockWord, ControlBlock } from './convention.ts';

export const MQTT_TOPIC_MAX = 256; // bytes of a topic
export const MQTT_PAYLOAD_MAX = 2048; // bytes of a published payload
export const MQTT_SUBSCRIPTIONS = 3;
export const MQTT_SUB_BASE = 15;
export const MQTT_SUB_WORDS = 6;

/** DT n+4: the connection to the broker. */
export const MQTT_CONNECTION = { off: 0, connecting: 1, connected: 2, reconnecting: 3 } as const;
export type MqttConnection = keyof typeof MQTT_CONNECTION;

const requests = { publish: 1 } as const;

function subscription(i: number): BlockWord[] {
  const at = MQTT_SUB_BASE + i * MQTT_SUB_WORDS;
  const n = i + 1;
  return [
    { offset: at, name: `sub${n}_topic_addr`, dir: 'plc', meaning: `DT address of subscription ${n}'s topic filter (0 = subscription unused)`, unit: 'DT' },
    {
      offset: at + 1,
      name: `sub${n}_topic_len`,
      dir: 'plc',
      meaning: `length of the topic filter in bytes (max ${MQTT_TOPIC_MAX}); 0 = up to its first NUL byte`,
      unit: 'bytes',
    },
    { offset: at + 2, name: `sub${n}_area_addr`, dir: 'plc', meaning: `DT address where a received message is written`, unit: 'DT' },
    { offset: at + 3, name: `sub${n}_area_size`, dir: 'plc', meaning: 'size of that area in bytes: a longer message is cut to it', unit: 'bytes' },
    { offset: at + 4, name: `sub${n}_count`, dir: 'unit', meaning: 'messages received on this subscription, 0-65535, wraps: a change means a new message' },
    {
      offset: at + 5,
      name: `sub${n}_length`,
      dir: 'unit',
      meaning: 'length of the last message in bytes (more than the area size when it was cut)',
      unit: 'bytes',
    },
  ];
}

export const MQTT_BLOCK: ControlBlock = {
  service: 'mqtt',
  section: 'pew_mqtt',
  length: MQTT_REGISTERS,
  defaultDt: 260,
  requests,
  words: [
    ...headWords(requests, 'a publish'),
    { offset: 4, name: 'connection', dir: 'unit', meaning: 'connection to the broker', values: MQTT_CONNECTION },
    { offset: 5, name: 'queue_waiting', dir: 'unit', meaning: 'publishes waiting in the queue for the broker (0-65535)' },
    {
      offset: 6,
      name: 'queue_dropped',
      dir: 'unit',
      meaning: 'publishes dropped because the queue was full, since the queue was created (0-65535, stays at 65535)',
    },
    ...pointerWords(7, 'topic', 'the topic to publish to', MQTT_TOPIC_MAX),
    ...pointerWords(9, 'payload', 'the payload', MQTT_PAYLOAD_MAX, `length of the payload in bytes (0-${MQTT_PAYLOAD_MAX}; 0 = an empty payload)`),
    { offset: 11, name: 'qos', dir: 'plc', meaning: 'QoS of the publish', values: { at_most_once: 0, at_least_once: 1, exactly_once: 2 } },
    { offset: 12, name: 'retain', dir: 'plc', meaning: 'the broker keeps the message for later subscribers', values: { no: 0, yes: 1 } },
    {
      offset: 13,
      name: 'status_topic_addr',
      dir: 'plc',
      meaning: 'DT address of the status topic: "online" (retained) after each connect, "offline" as the last will (0 = no status topic; read at connect)',
      unit: 'DT',
    },
    {
      offset: 14,
      name: 'status_topic_len',
      dir: 'plc',
      meaning: `length of the status topic in bytes (max ${MQTT_TOPIC_MAX}); 0 = up to its first NUL byte`,
      unit: 'bytes',
    },
    ...Array.from({ length: MQTT_SUBSCRIPTIONS }, (_, i) => subscription(i)).flat(),
    {
      offset: 33,
      name: 'sub_error',
      dir: 'unit',
      meaning: 'error code of the last subscription problem (a topic or area the unit refuses, a broker refusal), 0 when none',
    },
  ],
};
