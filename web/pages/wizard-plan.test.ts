// What the wizard builds from the technician's answers (spec §2 "Wizard", §3 "Port
// (pew_redirect)", §5, §9) and the problems each step shows.
import { describe, expect, it } from 'vitest';
import { CONFIG_SECTIONS } from '../../device/model/index.ts';
import { AREA_MAX, WORD_AREAS } from '../../device/model/plc.ts';
import { defaultsOf } from '../../device/model/section.ts';
import { mappedWidth, type Restriction } from '../../device/model/sections/redirect.ts';
import {
  buildPew,
  buildRedirect,
  COIL_BASE,
  checkDraft,
  type Draft,
  gatewayMapping,
  initialDraft,
  STEPS,
  simpleOnly,
  stepIssues,
  type Value,
} from './wizard-plan.ts';

const saved: Record<string, unknown> = Object.fromEntries(CONFIG_SECTIONS.map((d) => [d.key, defaultsOf(d)]));
const draft = (change: Partial<Draft> = {}): Draft => ({ ...initialDraft(saved.pew as Value, saved.pew_redirect as Value), ...change });
const grant = (area: string, start: number, end: number, rw = 'RO'): Value => ({
  type: 0,
  register_area_start: start,
  register_area_end: end,
  register_area_mapped: 0,
  area,
  read_write: rw,
});
const threads = (d: Draft) => buildRedirect(d).threads as { port: number; service: number; mb_translation: boolean; mapping: Restriction[] }[];

describe('steps', () => {
  it('simple mode skips the Modbus port and the gateway; advanced has every step of spec §2 in order', () => {
    expect(STEPS[0]).toEqual(['mode', 'iface', 'params', 'tcp', 'rules', 'finish']);
    expect(STEPS[1]).toEqual(['mode', 'iface', 'params', 'tcp', 'modbus', 'gateway', 'rules', 'finish']);
  });

  it('starts in simple mode on the default ports 9094 and 502, allowing all read', () => {
    expect(draft()).toMatchObject({ mode: 0, iface: 0, tcpPort: 9094, modbusPort: 502, gateway: 0, rule: 0, entries: [] });
  });

  it('going back to simple mode drops the gateway and the DT entries', () => {
    const d = draft({ mode: 1, gateway: 1, rule: 2, entries: [grant('DT', 0, 9), grant('WR', 0, 1)] });
    expect(simpleOnly(d)).toEqual({ gateway: 0, entries: [grant('WR', 0, 1)] });
  });
});

describe('what finish saves', () => {
  it('the chosen interface is enabled with its parameters, the others stay as they were', () => {
    const d = draft({ iface: 3 });
    const pew = buildPew(d);
    expect(pew.interfaces.find((i) => i.id === 3)!.enabled).toBe(true);
    expect(pew.interfaces.find((i) => i.id === 0)!.enabled).toBe(false);
    expect(pew.interfaces.find((i) => i.id === 4)!.enabled).toBe(true); // INTERNAL is on by default
    expect(d.pew.interfaces.find((i) => i.id === 3)!.enabled).toBe(false); // the draft itself is unchanged
  });

  it('edits of an interface that is not chosen in the end are not saved', () => {
    const d = draft({ iface: 0 });
    const edited = { ...d, pew: { ...d.pew, interfaces: d.pew.interfaces.map((i) => (i.id === 0 || i.id === 1 ? { ...i, baudrate: 19200 as const } : i)) } };
    const pew = buildPew({ ...edited, iface: 1 });
    expect(pew.interfaces.find((i) => i.id === 1)).toMatchObject({ enabled: true, baudrate: 19200 });
    expect(pew.interfaces.find((i) => i.id === 0)).toEqual(d.base.interfaces.find((i) => i.id === 0));
  });

  it('allow all read: one thread on the TCP port with one read-only entry per PLC word area over the whole area, DT included in both modes', () => {
    const [t, ...rest] = threads(draft({ tcpPort: 9100, iface: 5 }));
    expect(rest).toEqual([]);
    expect(t).toMatchObject({ port: 9100, service: 5, mb_translation: false });
    // DT holds nearly all of a Panasonic PLC's data: "allow all" covers it in simple mode too;
    // advanced mode adds DT restrictions by address range (individual entries) and the gateway
    const whole = WORD_AREAS.map((a) => [a, 0, AREA_MAX[a], 'RO']);
    expect(t!.mapping.map((r) => [r.area, r.register_area_start, r.register_area_end, r.read_write])).toEqual(whole);
    expect(t!.mapping[0]).toMatchObject({ area: 'DT', register_area_end: 999424 });
    const [advanced] = threads(draft({ mode: 1, tcpPort: 9100, iface: 5 }));
    expect(advanced!.mapping.map((r) => [r.area, r.register_area_start, r.register_area_end, r.read_write])).toEqual(whole);
  });

  it('allow all write gives the same entries with R/W; individual takes the entries as entered', () => {
    expect(threads(draft({ rule: 1 }))[0]!.mapping.every((r) => r.read_write === 'R/W')).toBe(true);
    const entries = [grant('WR', 0, 9, 'R/W'), grant('FL', 100, 199, 'BLK')];
    expect(threads(draft({ rule: 2, entries }))[0]!.mapping).toEqual(entries);
  });

  it('a gateway is a second thread with Modbus translation on the Modbus port, through the same or a new interface', () => {
    const same = threads(draft({ mode: 1, gateway: 1, iface: 0, modbusPort: 10502 }));
    expect(same).toHaveLength(2);
    expect(same[1]).toMatchObject({ port: 10502, service: 0, mb_translation: true });
    const other = draft({ mode: 1, gateway: 2, iface: 0, gatewayIface: 5, modbusPort: 10502 });
    expect(threads(other)[1]!.service).toBe(5);
    expect(
      buildPew(other)
        .interfaces.filter((i) => i.enabled)
        .map((i) => i.id)
        .sort(),
    ).toEqual([0, 4, 5]);
    // simple mode has no gateway whatever was chosen before
    expect(threads(draft({ mode: 0, gateway: 1 }))).toHaveLength(1);
  });

  it('the gateway maps DT0-DT65535 to holding registers 0-65535, the Y relays to coils from 0 and the R relays to coils from 10000', () => {
    const { mapping } = gatewayMapping(draft({ mode: 1, gateway: 1, rule: 1 }));
    const ranges = mapping.map((r) => [
      r.type,
      r.area,
      r.register_area_start,
      r.register_area_end,
      r.register_area_mapped,
      r.register_area_mapped + mappedWidth(r) - 1,
      r.read_write,
    ]);
    expect(ranges).toEqual([
      [0, 'DT', 0, 65535, 0, 65535, 'R/W'],
      [2, 'WY', 0, AREA_MAX.WY, 0, (AREA_MAX.WY + 1) * 16 - 1, 'R/W'],
      [2, 'WR', 0, AREA_MAX.WR, COIL_BASE.WR, COIL_BASE.WR! + (AREA_MAX.WR + 1) * 16 - 1, 'R/W'],
    ]);
    expect((AREA_MAX.WY + 1) * 16 - 1).toBeLessThan(COIL_BASE.WR!); // the two coil ranges do not meet
  });

  it('individual entries reach the gateway as DT holding registers at their own address and WY/WR coils; other areas do not', () => {
    const entries = [grant('DT', 100, 199, 'R/W'), grant('FL', 0, 9), grant('WY', 2, 3), grant('WR', 1, 1, 'BLK')];
    const { mapping, from } = gatewayMapping(draft({ mode: 1, gateway: 1, rule: 2, entries }));
    expect(mapping.map((r) => [r.type, r.area, r.register_area_mapped, r.read_write])).toEqual([
      [0, 'DT', 100, 'R/W'],
      [2, 'WY', 32, 'RO'],
      [2, 'WR', 10016, 'BLK'],
    ]);
    expect(from).toEqual([0, 2, 3]);
  });
});

describe('the problems of each step', () => {
  const at = (d: Draft, step: Parameters<typeof stepIssues>[0], gateway?: boolean) => stepIssues(step, d, checkDraft(d, saved, gateway));

  it('a valid individual setup with a gateway has none', () => {
    const d = draft({ mode: 1, gateway: 1, modbusPort: 10502, rule: 2, entries: [grant('DT', 0, 99, 'R/W'), grant('WR', 0, 9)] });
    expect(checkDraft(d, saved)).toEqual([]);
  });

  it('the rule choices 0 and 1 pass the shared schema, with and without a gateway', () => {
    expect(checkDraft(draft(), saved)).toEqual([]);
    expect(checkDraft(draft({ mode: 1, gateway: 1, modbusPort: 10502, rule: 1 }), saved)).toEqual([]);
  });

  it('an unallowed TCP port (spec §5) stops the TCP step', () => {
    expect(at(draft({ tcpPort: 8080 }), 'tcp')).toEqual([expect.objectContaining({ section: 'pew_redirect', path: 'threads.0.port', code: 'port_unallowed' })]);
    expect(at(draft({ tcpPort: 8080 }), 'mode')).toEqual([]);
  });

  it('the Modbus port is checked on its step even before a gateway is chosen: the same port as the TCP one clashes', () => {
    const d = draft({ mode: 1, tcpPort: 10502, modbusPort: 10502, rule: 2, entries: [grant('WR', 0, 1)] });
    expect(at(d, 'modbus', true)).toEqual([expect.objectContaining({ path: 'threads.1.port', code: 'port_conflict' })]);
    expect(at(draft({ mode: 1, modbusPort: 'x' }), 'modbus', true)).toEqual([expect.objectContaining({ path: 'threads.1.port', code: 'type' })]);
  });

  it('a port another saved section listens on clashes', () => {
    const withRest = { ...saved, pew_api: { ...(saved.pew_api as Value), api_enable: true, http_port: 9094 } };
    const d = draft({ rule: 2, entries: [grant('WR', 0, 1)] });
    expect(stepIssues('tcp', d, checkDraft(d, withRest))).toEqual([expect.objectContaining({ path: 'threads.0.port', code: 'port_conflict' })]);
  });

  it("individual entries: overlapping grants, start after end and a DT entry beyond the gateway's registers", () => {
    const d = draft({ mode: 1, rule: 2, entries: [grant('DT', 0, 9), grant('DT', 5, 20)] });
    expect(at(d, 'rules')).toEqual([expect.objectContaining({ path: 'threads.0.mapping.1.register_area_start', code: 'addresses_overlap' })]);
    expect(at(draft({ rule: 2, entries: [grant('WR', 9, 1)] }), 'rules')).toEqual([
      expect.objectContaining({ path: 'threads.0.mapping.0.register_area_start', code: 'start_after_end' }),
    ]);
    const far = draft({ mode: 1, gateway: 1, modbusPort: 10502, rule: 2, entries: [grant('DT', 0, 9), grant('DT', 70000, 70010)] });
    expect(at(far, 'rules')).toContainEqual(expect.objectContaining({ path: 'threads.0.mapping.1.register_area_end', code: 'address_out_of_range' }));
    expect(at(far, 'rules').every((i) => i.path.startsWith('threads.0.mapping.1.'))).toBe(true);
  });

  it('the parameters of the chosen interface are checked on its step: COM4 needs the PLC address', () => {
    const d = draft({ iface: 5 });
    expect(at(d, 'params')).toEqual([expect.objectContaining({ section: 'pew', path: 'interfaces.4.ip_port', code: 'required' })]);
    expect(at(draft({ iface: 0 }), 'params')).toEqual([]);
  });
});
