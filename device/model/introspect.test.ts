import { describe, expect, it } from 'vitest';
import { metaAt } from './introspect.ts';
import { mqttSchema } from './sections/mqtt.ts';
import { pewSchema } from './sections/pew.ts';
import { redirectSchema } from './sections/redirect.ts';

describe('field meta from the schema', () => {
  it('reads kinds, ranges, defaults and choices of pew_mqtt', () => {
    expect(metaAt(mqttSchema, 'keep_alive')).toMatchObject({ kind: 'number', integer: true, min: 0, max: 65535, default: 65 });
    expect(metaAt(mqttSchema, 'qos')).toMatchObject({ kind: 'choice', options: [0, 1, 2], default: 1 });
    expect(metaAt(mqttSchema, 'plc_poll')).toMatchObject({ kind: 'number', integer: false, min: 0.2, max: 120 });
    expect(metaAt(mqttSchema, 'enable_mqtt')).toMatchObject({ kind: 'boolean', default: false });
    expect(metaAt(mqttSchema, 'broker_user')).toMatchObject({ kind: 'string', maxLength: 64 });
  });
  it('reads ranges written as checks (control register block, listening port)', () => {
    expect(metaAt(mqttSchema, 'plc_control_dt')).toMatchObject({ kind: 'number', integer: true, min: 0, max: 999424 - 34 + 1, default: 260 });
    expect(metaAt(redirectSchema, 'threads.0.port')).toMatchObject({ kind: 'number', min: 1025, max: 65535, default: 9094 });
  });
  it('walks into lists and nested objects; unknown paths are unknown', () => {
    expect(metaAt(redirectSchema, 'threads')).toMatchObject({ kind: 'list', maxLength: 10 });
    expect(metaAt(redirectSchema, 'threads.3.mapping.1.read_write')).toMatchObject({ kind: 'choice' });
    expect(metaAt(pewSchema, 'nope').kind).toBe('unknown');
    expect(metaAt(mqttSchema, 'keep_alive.x').kind).toBe('unknown');
  });
});
