// Sparkplug B 3.0 topics (chapter 4): `spBv1.0/<group>/<type>/<edge node>[/<device>]` for the edge
// node's and its device's messages, `spBv1.0/STATE/<host id>` for a primary host's state. The ids are
// checked by the model (pew_mqtt, isSparkplugId), the one home of the token rule.
import { isSparkplugId } from '../model/sections/mqtt.ts';

export { isSparkplugId };

/** topic-structure-namespace-a */
export const NAMESPACE = 'spBv1.0';

export const NODE_TYPES = ['NBIRTH', 'NDEATH', 'NDATA', 'NCMD'] as const;
export const DEVICE_TYPES = ['DBIRTH', 'DDEATH', 'DDATA', 'DCMD'] as const;
export type NodeType = (typeof NODE_TYPES)[number];
export type DeviceType = (typeof DEVICE_TYPES)[number];

/** Whose messages a topic carries: the edge node's (group, edge node) and its device. */
export interface SparkplugIds {
  group: string;
  node: string;
  device: string;
}

/** `spBv1.0/G/<type>/E` (topics-nbirth-topic, -ndeath-topic, -ndata-topic, -ncmd-topic; no device: device-id-non-associated-message-types). */
export const nodeTopic = (ids: Pick<SparkplugIds, 'group' | 'node'>, type: NodeType): string => `${NAMESPACE}/${ids.group}/${type}/${ids.node}`;

/** `spBv1.0/G/<type>/E/D` (topics-dbirth-topic, -ddeath-topic, -ddata-topic, -dcmd-topic; device-id-associated-message-types). */
export const deviceTopic = (ids: SparkplugIds, type: DeviceType): string => `${NAMESPACE}/${ids.group}/${type}/${ids.node}/${ids.device}`;

/** `spBv1.0/STATE/<host id>`, a primary host's birth and death (host-topic-phid-birth-topic). */
export const stateTopic = (hostId: string): string => `${NAMESPACE}/STATE/${hostId}`;

/** The ids that are no valid topic level (empty, too long, `/ + #`, control characters), by name; empty: all fine. */
export function badIds(ids: SparkplugIds): (keyof SparkplugIds)[] {
  return (['group', 'node', 'device'] as const).filter((k) => !isSparkplugId(ids[k]));
}

/** What a received topic is, or null when it is no Sparkplug B topic of a known form. */
export type ParsedTopic =
  | { kind: 'node'; type: NodeType; group: string; node: string }
  | { kind: 'device'; type: DeviceType; group: string; node: string; device: string }
  | { kind: 'state'; hostId: string };

/** Parses a topic (topic-structure); ids that are no valid token give null, so a topic never names something we could not. */
export function parseTopic(topic: string): ParsedTopic | null {
  const levels = topic.split('/');
  if (levels[0] !== NAMESPACE) return null;
  if (levels[1] === 'STATE') return levels.length === 3 && isSparkplugId(levels[2]!) ? { kind: 'state', hostId: levels[2]! } : null;
  const [, group = '', type = '', node = '', device] = levels;
  if (!isSparkplugId(group) || !isSparkplugId(node)) return null;
  if (levels.length === 4 && (NODE_TYPES as readonly string[]).includes(type)) return { kind: 'node', type: type as NodeType, group, node };
  if (levels.length === 5 && device !== undefined && isSparkplugId(device) && (DEVICE_TYPES as readonly string[]).includes(type))
    return { kind: 'device', type: type as DeviceType, group, node, device };
  return null;
}

/** The topics an edge node subscribes to at QoS 1: its NCMD, its device's DCMD (message-flow-edge-node-ncmd-subscribe, -device-dcmd-subscribe), and the primary host's STATE when one is set. */
export function commandTopics(ids: SparkplugIds, primaryHostId: string): string[] {
  const topics = [nodeTopic(ids, 'NCMD'), deviceTopic(ids, 'DCMD')];
  return primaryHostId === '' ? topics : [...topics, stateTopic(primaryHostId)];
}
