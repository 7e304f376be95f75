import { describe, expect, it } from 'vitest';
import { badIds, commandTopics, deviceTopic, NAMESPACE, nodeTopic, parseTopic, stateTopic } from './topics.ts';

const ids = { group: 'Plant 1', node: 'Unit-7', device: 'COM1' };

describe('Sparkplug B topics', () => {
  it('namespace spBv1.0 (topic-structure, topic-structure-namespace-a)', () => {
    expect(NAMESPACE).toBe('spBv1.0');
  });

  it('node messages name no device (topics-nbirth-topic, topics-ndeath-topic, topics-ncmd-topic, topic-structure-namespace-device-id-non-associated-message-types)', () => {
    expect(nodeTopic(ids, 'NBIRTH')).toBe('spBv1.0/Plant 1/NBIRTH/Unit-7');
    expect(nodeTopic(ids, 'NDEATH')).toBe('spBv1.0/Plant 1/NDEATH/Unit-7');
    expect(nodeTopic(ids, 'NCMD')).toBe('spBv1.0/Plant 1/NCMD/Unit-7');
  });

  it('device messages end with the device (topics-dbirth-topic, topics-ddata-topic, topics-ddeath-topic, topics-dcmd-topic, topic-structure-namespace-device-id-associated-message-types)', () => {
    expect(deviceTopic(ids, 'DBIRTH')).toBe('spBv1.0/Plant 1/DBIRTH/Unit-7/COM1');
    expect(deviceTopic(ids, 'DDATA')).toBe('spBv1.0/Plant 1/DDATA/Unit-7/COM1');
    expect(deviceTopic(ids, 'DDEATH')).toBe('spBv1.0/Plant 1/DDEATH/Unit-7/COM1');
    expect(deviceTopic(ids, 'DCMD')).toBe('spBv1.0/Plant 1/DCMD/Unit-7/COM1');
  });

  it("a primary host's STATE topic (host-topic-phid-birth-topic)", () => {
    expect(stateTopic('scada')).toBe('spBv1.0/STATE/scada');
  });

  it('ids with / + # or control characters, empty or over 64 characters are refused (topic-structure-namespace-valid-group-id, -valid-edge-node-id, -valid-device-id)', () => {
    expect(badIds(ids)).toEqual([]);
    expect(badIds({ group: 'a/b', node: 'n+', device: '#' })).toEqual(['group', 'node', 'device']);
    expect(badIds({ group: '', node: 'x'.repeat(65), device: 'a\u0000' })).toEqual(['group', 'node', 'device']);
    expect(badIds({ group: 'x'.repeat(64), node: 'Größe', device: '😀' })).toEqual([]);
  });

  it('parses what it builds, and nothing of another form', () => {
    expect(parseTopic(nodeTopic(ids, 'NCMD'))).toEqual({ kind: 'node', type: 'NCMD', group: 'Plant 1', node: 'Unit-7' });
    expect(parseTopic(deviceTopic(ids, 'DCMD'))).toEqual({ kind: 'device', type: 'DCMD', group: 'Plant 1', node: 'Unit-7', device: 'COM1' });
    expect(parseTopic(stateTopic('scada'))).toEqual({ kind: 'state', hostId: 'scada' });
    for (const other of [
      'spBv1.0/G/DCMD/E',
      'spBv1.0/G/NCMD/E/D',
      'spBv1.0/G/XCMD/E',
      'spAv1.0/G/NCMD/E',
      'STATE/scada',
      'spBv1.0/STATE/a/b',
      'spBv1.0/STATE/',
      'spBv1.0//NCMD/E',
      'spBv1.0/G/DCMD/E/D/x',
    ])
      expect(parseTopic(other), other).toBeNull();
  });

  it('subscribes NCMD, DCMD and the primary host STATE (message-flow-edge-node-ncmd-subscribe, message-flow-device-dcmd-subscribe, operational-behavior-primary-application-state-with-multiple-servers-state-subs)', () => {
    expect(commandTopics(ids, '')).toEqual(['spBv1.0/Plant 1/NCMD/Unit-7', 'spBv1.0/Plant 1/DCMD/Unit-7/COM1']);
    expect(commandTopics(ids, 'scada')).toEqual(['spBv1.0/Plant 1/NCMD/Unit-7', 'spBv1.0/Plant 1/DCMD/Unit-7/COM1', 'spBv1.0/STATE/scada']);
  });
});
