import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../fields.ts';
import { defaultsOf, maskSection, unmaskSection } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { isSparkplugId, pew_mqtt } from './mqtt.ts';

describe('pew_mqtt', () => {
  it('defaults: keep_alive 65, qos 1, off, control register 260 (spec §3, §9)', () => {
    const d = defaultsOf(pew_mqtt);
    expect(d).toMatchObject({ keep_alive: 65, qos: 1, enable_mqtt: false, plc_control_dt: 260 });
    expectAccepted(pew_mqtt, () => {});
  });

  it('the 34-register control block must fit the DT area', () => {
    expectAccepted(pew_mqtt, (x) => (x.plc_control_dt = 999424 - 33));
    expectRejected(pew_mqtt, (x) => (x.plc_control_dt = 999424 - 32), 'plc_control_dt', 'address_out_of_range', { max: 999391 });
    expectRejected(pew_mqtt, (x) => (x.plc_control_dt = -1), 'plc_control_dt', 'address_out_of_range');
  });

  it('poll 0.2-120 and qos 0-2', () => {
    expectRange(pew_mqtt, (x, n) => (x.plc_poll = n), 'plc_poll', 0.2, 120, 0.1);
    expectRejected(pew_mqtt, (x) => (x.qos = 3), 'qos', 'invalid_value');
  });

  it('broker address: required when enabled, host or URL', () => {
    expectRejected(pew_mqtt, (x) => (x.enable_mqtt = true), 'broker_addr', 'required');
    for (const ok of ['broker.local', '10.0.0.2', 'mqtts://broker.example.com:8883', 'broker:1883'])
      expectAccepted(pew_mqtt, (x) => Object.assign(x, { enable_mqtt: true, broker_addr: ok }));
    for (const bad of ['http://x', 'a b', 'host:70000', 'mqtt://']) expectRejected(pew_mqtt, (x) => (x.broker_addr = bad), 'broker_addr', 'invalid_host');
  });

  it('user name limit and certificate names (spec §5)', () => {
    expectMaxLength(pew_mqtt, (x, s) => (x.broker_user = s), 'broker_user', 64);
    expectAccepted(pew_mqtt, (x) => Object.assign(x, { ca: 'ca.pem', client: 'client.crt', key: 'key.key' }));
    expectRejected(pew_mqtt, (x) => (x.ca = 'ca.der'), 'ca', 'file_extension');
    expectRejected(pew_mqtt, (x) => (x.key = 'key.crt'), 'key', 'file_extension');
  });

  it('password masked on read and kept when the mask comes back', () => {
    const stored = { ...defaultsOf(pew_mqtt), broker_password: 's3cret' };
    const shown = maskSection(pew_mqtt, stored);
    expect(shown.broker_password).toBe(PASSWORD_MASK);
    expect(maskSection(pew_mqtt, defaultsOf(pew_mqtt)).broker_password).toBe('');
    expect(unmaskSection(pew_mqtt, shown, stored).broker_password).toBe('s3cret');
    expect(unmaskSection(pew_mqtt, { ...shown, broker_password: 'new' }, stored).broker_password).toBe('new');
  });

  it('Sparkplug: off by default, ids empty, poll 1 s in 0.2-120 like plc_poll; stored settings without the fields load', () => {
    expect(defaultsOf(pew_mqtt)).toMatchObject({
      sparkplug_enable: false,
      sparkplug_group_id: '',
      sparkplug_edge_node_id: '',
      sparkplug_device_id: '',
      sparkplug_primary_host_id: '',
      sparkplug_poll: 1,
    });
    expectRange(pew_mqtt, (x, n) => (x.sparkplug_poll = n), 'sparkplug_poll', 0.2, 120, 0.1);
  });

  it('Sparkplug: group and edge node id required when on, with the broker (topic-structure)', () => {
    expectRejected(
      pew_mqtt,
      (x) => Object.assign(x, { sparkplug_enable: true, broker_addr: 'b', sparkplug_edge_node_id: 'e' }),
      'sparkplug_group_id',
      'required',
    );
    expectRejected(
      pew_mqtt,
      (x) => Object.assign(x, { sparkplug_enable: true, broker_addr: 'b', sparkplug_group_id: 'g' }),
      'sparkplug_edge_node_id',
      'required',
    );
    expectRejected(
      pew_mqtt,
      (x) => Object.assign(x, { sparkplug_enable: true, sparkplug_group_id: 'g', sparkplug_edge_node_id: 'e' }),
      'broker_addr',
      'required',
    );
    expectAccepted(pew_mqtt, (x) =>
      Object.assign(x, { sparkplug_enable: true, broker_addr: 'b', sparkplug_group_id: 'Plant 1', sparkplug_edge_node_id: 'Unit-7' }),
    );
  });

  it('Sparkplug ids: 1-64 characters, no / + # or control characters, well-formed (topic-structure-namespace-valid-group-id, -valid-edge-node-id, -valid-device-id, intro-group-id-chars)', () => {
    for (const path of ['sparkplug_group_id', 'sparkplug_edge_node_id', 'sparkplug_device_id', 'sparkplug_primary_host_id'] as const) {
      for (const bad of ['a/b', 'a+', '#', 'a\u0000b', 'tab\there', 'c1\u0085', 'lone\ud800'])
        expectRejected(pew_mqtt, (x) => (x[path] = bad), path, 'invalid_characters');
      for (const ok of ['Line 1', 'Größe', 'a.b-c_d', '数据', '😀', 'x'.repeat(64)]) expectAccepted(pew_mqtt, (x) => (x[path] = ok));
      expectMaxLength(pew_mqtt, (x, s) => (x[path] = s), path, 64);
    }
    expect(isSparkplugId('')).toBe(false);
    expect(isSparkplugId('x'.repeat(65))).toBe(false);
  });
});
