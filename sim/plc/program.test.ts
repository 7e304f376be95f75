// The virtual PLC's program (program.ts): the four kinds of changing values, and scheduled service
// requests placed through the control block tables, waiting while the last one is not taken.

import * as v from 'valibot';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MQTT_BLOCK } from '../../device/model/blocks/mqtt.ts';
import { getBytes, readBlock } from './blocks.ts';
import { PlcMemory } from './memory.ts';
import { programSchema, runProgram, type ValueDef, valueAt } from './program.ts';

afterEach(() => {
  vi.useRealTimers();
});

const def = (kind: ValueDef['kind'], over: Partial<ValueDef> = {}): ValueDef => ({
  address: 'DT100',
  kind,
  min: 0,
  max: 100,
  period_s: 10,
  every_ms: 1000,
  ...over,
});

describe('PLC program', () => {
  it('counter counts up and wraps to min; ramp and sine follow the period; random walk stays in its range', () => {
    expect(valueAt(def('counter'), 0, 5, Math.random)).toBe(6);
    expect(valueAt(def('counter'), 0, 100, Math.random)).toBe(0);
    expect([0, 2500, 5000, 9999].map((t) => valueAt(def('ramp'), t, 0, Math.random))).toEqual([0, 25, 50, 100]);
    expect([0, 2500, 5000, 7500].map((t) => valueAt(def('sine'), t, 0, Math.random))).toEqual([50, 100, 50, 0]);
    let x = 50;
    for (let i = 0; i < 500; i++) {
      x = valueAt(def('random_walk', { min: 10, max: 20 }), i, x, Math.random);
      expect(x).toBeGreaterThanOrEqual(10);
      expect(x).toBeLessThanOrEqual(20);
    }
  });

  it('places a scheduled MQTT publish with the current value, and waits while it is not taken', () => {
    vi.useFakeTimers();
    const memory = new PlcMemory('FP-XH');
    const program = v.parse(programSchema, {
      values: [{ address: 'DT100', kind: 'counter', every_ms: 1000 }],
      requests: [{ every_s: 5, request: ['mqtt', 'publish', 'topic=plant/count', 'payload=${DT100}', 'qos=1'] }],
    });
    const run = runProgram(memory, program);
    vi.advanceTimersByTime(5000);
    const b = readBlock(memory, MQTT_BLOCK, 260);
    expect(b).toMatchObject({ request: 1, qos: 1, topic_len: 11 });
    // the counter's value at the moment of the request: 1 at the start, one more each second (it ticks first at 5 s)
    expect(Buffer.from(getBytes(memory, b.payload_addr!, b.payload_len!)).toString()).toBe('6');
    expect(Buffer.from(getBytes(memory, b.topic_addr!, b.topic_len!)).toString()).toBe('plant/count');
    const payload = Buffer.from(getBytes(memory, b.payload_addr!, b.payload_len!)).toString();
    vi.advanceTimersByTime(5000); // not taken: left as it was
    expect(Buffer.from(getBytes(memory, b.payload_addr!, b.payload_len!)).toString()).toBe(payload);
    memory.writeWords('DT', 260, [0]); // the unit takes it
    vi.advanceTimersByTime(5000);
    expect(readBlock(memory, MQTT_BLOCK, 260).request).toBe(1);
    run.stop();
  });

  it('refuses an unknown kind and a request line the tables do not know', () => {
    expect(v.safeParse(programSchema, { values: [{ address: 'DT1', kind: 'square' }] }).success).toBe(false);
    expect(v.safeParse(programSchema, { requests: [{ every_s: 5, request: ['mqtt', 'shout'] }] }).success).toBe(false);
  });
});
