import { describe, expect, it } from 'vitest';
import { CONFIG_SECTIONS } from './index.ts';
import { crossSectionIssues } from './rules.ts';
import { defaultsOf } from './section.ts';

type Config = Record<string, any>;
const defaults = (): Config => Object.fromEntries(CONFIG_SECTIONS.map((d) => [d.key, structuredClone(defaultsOf(d))]));

/** Every service that reserves control registers switched on with its default registers. */
function allServicesOn(): Config {
  const c = defaults();
  c.pew_mqtt.enable_mqtt = true;
  c.pew_ftpc.enable_ftp = true;
  c.pew_httpc.enable_httpc = true;
  c.pew_email.enable_email = true;
  c.pew_sql.enable_sql = true;
  c.pew_nosql.enable_sql = true;
  c.pew_tls.enable_tlsclient = true;
  c.pew_tls.enable_tlsserver = true;
  c.pew_rtc.rtc_by_plc = true;
  Object.assign(c.pew_log, { enable_log: true, enable_mem_ctrl: true, enable_plc_ctrl: true });
  return c;
}

const cross = (c: Config, systemPorts: number[] = []) => crossSectionIssues(CONFIG_SECTIONS, c, { systemPorts });

describe('control registers (spec §9)', () => {
  it('the default registers of every service fit side by side', () => {
    expect(cross(allServicesOn())).toEqual({});
  });

  it('overlapping blocks are reported on both sides; adjacent blocks are fine', () => {
    const c = allServicesOn();
    c.pew_ftpc.plc_control_dt = 260 + 34; // right after MQTT's 34 registers
    c.pew_email.plc_control_dt = 100;
    expect(cross(c)).toEqual({});
    c.pew_ftpc.plc_control_dt = 260 + 33; // shares MQTT's last register
    const issues = cross(c);
    expect(issues.pew_ftpc).toEqual([
      { path: 'plc_control_dt', code: 'addresses_overlap', params: { other: 'pew_mqtt.plc_control_dt', start: 260, end: 293 } },
    ]);
    expect(issues.pew_mqtt).toEqual([
      { path: 'plc_control_dt', code: 'addresses_overlap', params: { other: 'pew_ftpc.plc_control_dt', start: 293, end: 298 } },
    ]);
    c.pew_ftpc.plc_control_dt = 260 - 6; // ends at 259
    expect(cross(c)).toEqual({});
    c.pew_ftpc.plc_control_dt = 260 - 5;
    expect(cross(c).pew_ftpc?.[0]?.code).toBe('addresses_overlap');
  });

  it('a disabled service reserves nothing', () => {
    const c = allServicesOn();
    c.pew_ftpc.plc_control_dt = 260;
    c.pew_ftpc.enable_ftp = false;
    expect(cross(c)).toEqual({});
  });

  it('RTC and logger registers take part', () => {
    const c = allServicesOn();
    c.pew_rtc.rtc_control_rtc_r = 378; // 378-382 meets NoSQL 370-379 and the logger's 380-382
    const issues = cross(c);
    expect(issues.pew_rtc?.map((i) => i.params?.other)).toEqual(expect.arrayContaining(['pew_nosql.plc_control_dt', 'pew_log.mem_write_stop']));
  });
});

describe('TCP ports (spec §5)', () => {
  it('two listeners on one port conflict', () => {
    const c = defaults();
    c.pew_redirect.threads = [
      { port: 2404, mb_translation: false, monitoring_cmd: true, service: 0, clients: 4, timeout: 60, ip_start: '0.0.0.0', ip_end: '0.0.0.0', mapping: [] },
    ];
    expect(cross(c)).toEqual({}); // IEC is off
    c.pew_60870.enable_60870 = true;
    expect(cross(c).pew_redirect).toEqual([{ path: 'threads.0.port', code: 'port_conflict', params: { port: 2404, other: 'pew_60870.port' } }]);
    expect(cross(c).pew_60870).toEqual([{ path: 'port', code: 'port_conflict', params: { port: 2404, other: 'pew_redirect.threads.0.port' } }]);
  });

  it('a port the system uses is refused', () => {
    const c = defaults();
    c.pew_60870.enable_60870 = true;
    expect(cross(c, [2404]).pew_60870).toEqual([{ path: 'port', code: 'port_system', params: { port: 2404 } }]);
    expect(cross(c, [2405])).toEqual({});
  });

  it("the console's own ports are refused, by name", () => {
    const c = defaults();
    c.pew_60870.enable_60870 = true;
    c.pew_60870.port = 8443;
    expect(crossSectionIssues(CONFIG_SECTIONS, c, { consolePorts: [8088, 8443], systemPorts: [8443] }).pew_60870).toEqual([
      { path: 'port', code: 'port_console', params: { port: 8443 } },
    ]);
    expect(crossSectionIssues(CONFIG_SECTIONS, c, { consolePorts: [8088] })).toEqual({});
  });
});

describe('transparent interfaces (spec §5)', () => {
  it('cannot be the service control interface', () => {
    const c = defaults();
    c.pew.interfaces[0].service = 1; // COM1 transparent
    c.pew.interface_plc = 0;
    expect(cross(c)).toEqual({}); // no service uses it yet
    c.pew_mqtt.enable_mqtt = true;
    const issues = cross(c);
    expect(issues.pew_mqtt).toEqual([{ path: 'plc_control_dt', code: 'transparent_interface', params: { interface: 'COM1' } }]);
    expect(issues.pew).toEqual([{ path: 'interfaces.0.service', code: 'transparent_interface', params: { interface: 'COM1' } }]);
  });

  it('cannot feed insert-without-PLC', () => {
    const c = defaults();
    c.pew.interfaces[2].service = 1; // COM3 transparent
    Object.assign(c.pew_sql, { enable_sql: true, insertWithoutPLC: true, interface: 1 });
    c.pew.interface_plc = 4;
    const issues = cross(c);
    expect(issues.pew_sql?.some((i) => i.code === 'transparent_interface' && i.path === 'interface')).toBe(true);
  });
});

describe('Sparkplug B edge node (pew_mqtt.sparkplug_*)', () => {
  const on = (): Config => {
    const c = defaults();
    Object.assign(c.pew_mqtt, { sparkplug_enable: true, broker_addr: 'b', sparkplug_group_id: 'g', sparkplug_edge_node_id: 'e' });
    c.pew.interface_plc = 0;
    c.pew_log.log_def = [
      { id: 1, name: 'Tank', interface: 0, records: [] },
      { id: 2, name: 'tank', interface: 0, records: [] },
    ];
    return c;
  };
  const rec = (id: number, name: string, iface = 0) => ({ id, name, if: iface, reg_addr: String(id * 10) });

  it('an empty device id takes the PLC interface name, which must then be an id (topic-structure-namespace-valid-device-id)', () => {
    const c = on();
    expect(cross(c)).toEqual({});
    c.pew.interfaces.find((i: { id: number }) => i.id === 0).name = 'COM/1';
    expect(cross(c)).toEqual({ pew_mqtt: [{ path: 'sparkplug_device_id', code: 'required' }] });
    c.pew_mqtt.sparkplug_device_id = 'PLC';
    expect(cross(c)).toEqual({});
    c.pew_mqtt.sparkplug_device_id = 'P/LC'; // the field itself reports it
    expect(cross(c)).toEqual({});
    c.pew_mqtt.sparkplug_enable = false;
    c.pew_mqtt.sparkplug_device_id = '';
    expect(cross(c)).toEqual({});
  });

  it('metric names <file>/<variable> of the device interface differ ignoring case (case-sensitivity-metric-names)', () => {
    const c = on();
    c.pew_log.log_def[0].records = [rec(1, 'Level'), rec(2, 'level'), rec(3, 'Other', 4), rec(4, 'other', 4)];
    c.pew_log.log_def[1].records = [rec(1, 'LEVEL'), rec(2, 'Temp')];
    expect(cross(c)).toEqual({
      pew_log: [
        { path: 'log_def.0.records.1.name', code: 'duplicate' },
        { path: 'log_def.1.records.0.name', code: 'duplicate' },
      ],
    });
    c.pew_mqtt.sparkplug_enable = false;
    expect(cross(c)).toEqual({});
  });
});
