// `npm run plc -- request`: a service request by the names of the control block tables becomes
// memory writes, texts placed where the block points, the request word last.
import { describe, expect, it } from 'vitest';
import { MQTT_BLOCK } from '../device/model/blocks/mqtt.ts';
import { getBytes, readBlock } from './plc/blocks.ts';
import { VirtualPlc } from './plc/virtual-plc.ts';
import { plcCalls } from './plc-cli.ts';
import { requestWrites } from './plc-request.ts';

describe('plc request', () => {
  it('an MQTT publish: topic and payload texts, QoS and retain, the request word last', () => {
    const writes = requestWrites(['mqtt', 'publish', 'topic=plant/level', 'payload=21.5', 'qos=1', 'retain=1']);
    expect(writes.at(-1)).toEqual({ address: 'DT260', values: [1] });
    const plc = new VirtualPlc({ model: 'FP-XH', station: 1, scanMs: 1 });
    for (const w of writes) plc.memory.writeWords('DT', Number(w.address.slice(2)), w.values);
    const b = readBlock(plc.memory, MQTT_BLOCK, 260);
    expect(b).toMatchObject({ request: 1, topic_addr: 1000, topic_len: 11, payload_addr: 1006, payload_len: 4, qos: 1, retain: 1 });
    expect(Buffer.from(getBytes(plc.memory, 1000, 11)).toString()).toBe('plant/level');
    expect(Buffer.from(getBytes(plc.memory, 1006, 4)).toString()).toBe('21.5');
  });

  it('--dt and --text-at move the block and the texts; an HTTP request by method name', () => {
    const writes = requestWrites(['httpc', 'post', 'path=/tank', 'body=x', '--dt', '500', '--text-at', '2000']);
    expect(writes).toContainEqual({ address: 'DT504', values: [2000] });
    expect(writes.at(-1)).toEqual({ address: 'DT500', values: [2] });
  });

  it('refuses an unknown service, request or word, and a word that is not a number', () => {
    expect(() => requestWrites(['sms', 'send'])).toThrow(/unknown service "sms"/);
    expect(() => requestWrites(['mqtt', 'shout'])).toThrow(/no request "shout" \(publish\)/);
    expect(() => requestWrites(['mqtt', 'publish', 'colour=red'])).toThrow(/no word "colour"/);
    expect(() => requestWrites(['mqtt', 'publish', 'qos=high'])).toThrow(/not a whole number/);
    expect(() => plcCalls(['request', 'X', 'mqtt', 'publish'])).toThrow(/give a connector/);
  });

  it("plcCalls turns a request line into memory writes on the connector's PLC route", () => {
    const calls = plcCalls(['request', 'COM1', 'email', 'send', 'text=Alarm']);
    expect(calls.every((c) => c.method === 'POST' && c.path.endsWith('/COM1/memory'))).toBe(true);
    expect(calls.at(-1)!.body).toEqual({ address: 'DT230', values: [1] });
  });
});
