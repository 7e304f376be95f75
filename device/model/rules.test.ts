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
