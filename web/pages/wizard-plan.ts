// What the PLC connection wizard builds (spec §2 "Wizard"), apart from its screens: the steps of
// each mode, the COM and Port settings made from the technician's answers, and the problems the
// shared schemas and rules find in them, sorted to the step that asks for the value.

import { CONFIG_SECTIONS, sectionByKey } from '../../device/model/index.ts';
import type { IssueParams } from '../../device/model/issues.ts';
import { AREA_MAX, INTERFACE_IDS, type InterfaceId, MODBUS_ADDRESS_MAX, WORD_AREAS, type WordArea } from '../../device/model/plc.ts';
import { crossSectionIssues } from '../../device/model/rules.ts';
import { validateSection, withDefaults } from '../../device/model/section.ts';
import type { Pew } from '../../device/model/sections/pew.ts';
import { COIL, DEFAULT_PORT, MODBUS_PORT, type Restriction, threadSchema } from '../../device/model/sections/redirect.ts';
import type { ClientCode } from '../api/client.ts';

export type Value = Record<string, unknown>;
export type Mode = 0 | 1; // simple, advanced
export type Gateway = 0 | 1 | 2; // none, same interface, new interface
export type Rule = 0 | 1 | 2; // allow all read, allow all write, individual
export type StepId = 'mode' | 'iface' | 'params' | 'tcp' | 'modbus' | 'gateway' | 'rules' | 'finish';
export type SectionKey = 'pew' | 'pew_redirect';

export interface WizIssue {
  section: SectionKey;
  path: string;
  code: ClientCode;
  params?: IssueParams;
}

export interface Draft {
  mode: Mode;
  iface: InterfaceId;
  /** the saved COM settings the wizard started from */
  base: Pew;
  /** the COM settings with the technician's edits of interface parameters */
  pew: Pew;
  tcpPort: unknown;
  modbusPort: unknown;
  gateway: Gateway;
  gatewayIface: InterfaceId;
  rule: Rule;
  /** the individual restrictions (rule 2) of the TCP thread */
  entries: Value[];
}

export const STEPS: Record<Mode, readonly StepId[]> = {
  0: ['mode', 'iface', 'params', 'tcp', 'rules', 'finish'],
  1: ['mode', 'iface', 'params', 'tcp', 'modbus', 'gateway', 'rules', 'finish'],
};

// ---- the Modbus layout of the gateway thread ----

/** Holding registers 0-65535 are DT0-DT65535 (one register per data word). */
export const GATEWAY_DT_LAST = MODBUS_ADDRESS_MAX;
/** Coils: the Y relays from 0 (16 per word: coil 16·n + b is Y bit b of WY n), the R relays from 10000. */
export const COIL_BASE: Partial<Record<WordArea, number>> = { WY: 0, WR: 10000 };
const GATEWAY_AREAS: readonly WordArea[] = ['DT', 'WY', 'WR'];

const rightOf = (rule: Rule) => (rule === 1 ? 'R/W' : 'RO');

/** The word areas a mode's individual restrictions may name: spec §2, DT-area restrictions belong to advanced mode. */
export const modeAreas = (mode: Mode): readonly WordArea[] => (mode === 1 ? WORD_AREAS : WORD_AREAS.filter((a) => a !== 'DT'));

/**
 * spec §2 rule choices 0 and 1: one entry per PLC word area over the whole area (AREA_MAX), DT
 * included in both modes (DT holds nearly all of a Panasonic PLC's data); what advanced mode adds
 * are DT restrictions by address range among the individual entries, and the gateway.
 */
export function wholeAreas(rule: Rule): Restriction[] {
  return WORD_AREAS.map((area) => ({
    type: 0,
    register_area_start: 0,
    register_area_end: AREA_MAX[area],
    register_area_mapped: 0,
    area,
    read_write: rightOf(rule),
  }));
}

/**
 * The gateway's restrictions and, for each, the individual entry it comes from (-1 when the rule
 * made it): DT words as holding registers at their own address, WY and WR words as coils from
 * their base; other areas are not reachable over Modbus.
 */
export function gatewayMapping(d: Draft): { mapping: Restriction[]; from: number[] } {
  if (d.rule !== 2) {
    const rw = rightOf(d.rule);
    return {
      mapping: [
        { type: 0, register_area_start: 0, register_area_end: GATEWAY_DT_LAST, register_area_mapped: 0, area: 'DT', read_write: rw },
        { type: COIL, register_area_start: 0, register_area_end: AREA_MAX.WY, register_area_mapped: COIL_BASE.WY!, area: 'WY', read_write: rw },
        { type: COIL, register_area_start: 0, register_area_end: AREA_MAX.WR, register_area_mapped: COIL_BASE.WR!, area: 'WR', read_write: rw },
      ],
      from: [-1, -1, -1],
    };
  }
  const mapping: Restriction[] = [];
  const from: number[] = [];
  d.entries.forEach((e, j) => {
    const area = e.area as WordArea;
    if (!GATEWAY_AREAS.includes(area)) return;
    const start = e.register_area_start;
    const base = COIL_BASE[area];
    const mapped = area === 'DT' ? start : typeof start === 'number' && base !== undefined ? base + start * 16 : start;
    mapping.push({ ...(e as unknown as Restriction), type: area === 'DT' ? 0 : COIL, register_area_mapped: mapped as number });
    from.push(j);
  });
  return { mapping, from };
}

// ---- building the two sections ----

export const indexOf = (p: Pew, id: InterfaceId) => p.interfaces.findIndex((i) => i.id === id);
export const hasGateway = (d: Draft) => d.mode === 1 && d.gateway !== 0;
export const gatewayService = (d: Draft) => (d.gateway === 2 ? d.gatewayIface : d.iface);

/** The COM settings to save: the chosen interface (and a new gateway interface) enabled with its parameters. */
export function buildPew(d: Draft): Pew {
  const on = new Set<number>([d.iface, ...(hasGateway(d) && d.gateway === 2 ? [d.gatewayIface] : [])]);
  // edits of an interface that was looked at and then not chosen are not saved
  return {
    ...d.base,
    interfaces: d.base.interfaces.map((i) => {
      const edited = d.pew.interfaces.find((e) => e.id === i.id);
      return on.has(i.id) && edited ? { ...edited, enabled: true } : i;
    }),
  };
}

/** The port settings to save; `gateway` forces the gateway thread (its port is checked before the choice). */
export function buildRedirect(d: Draft, gateway = hasGateway(d)): Value {
  const thread = (extra: Value) => withDefaults(threadSchema, extra) as Value;
  const threads = [thread({ port: d.tcpPort, service: d.iface, mb_translation: false, mapping: d.rule === 2 ? d.entries : wholeAreas(d.rule) })];
  if (gateway) threads.push(thread({ port: d.modbusPort, service: gatewayService(d), mb_translation: true, mapping: gatewayMapping(d).mapping }));
  return { threads };
}

const GATEWAY_AT = 'threads.1.mapping.';

/** Every problem of the draft: the shared schemas and rules of both sections, and the cross-section rules. */
export function checkDraft(d: Draft, saved: Readonly<Record<string, unknown>>, gateway = hasGateway(d)): WizIssue[] {
  const pewDef = sectionByKey('pew')!;
  const redirectDef = sectionByKey('pew_redirect')!;
  const pew = buildPew(d);
  const redirect = buildRedirect(d, gateway);
  const out: WizIssue[] = [];
  const p = validateSection(pewDef, pew);
  if (!p.ok) out.push(...p.issues.map((i) => ({ section: 'pew' as const, ...i })));
  const r = validateSection(redirectDef, redirect);
  if (!r.ok) {
    // the gateway's entries made from individual ones are reported at the entry they come from
    const { from } = gatewayMapping(d);
    for (const i of r.issues) {
      const m = i.path.startsWith(GATEWAY_AT) ? /^(\d+)\.(\w+)$/.exec(i.path.slice(GATEWAY_AT.length)) : null;
      const j = m ? from[Number(m[1])] : undefined;
      if (m && j !== undefined && j >= 0) {
        const field = m[2] === 'register_area_mapped' || m[2] === 'type' ? 'register_area_start' : m[2]!;
        out.push({ ...i, section: 'pew_redirect', path: `threads.0.mapping.${j}.${field}` });
      } else out.push({ section: 'pew_redirect', ...i });
    }
  }
  if (gateway && d.rule === 2) {
    // a DT entry reaches the gateway at its own address: it must end within the Modbus addresses
    d.entries.forEach((e, j) => {
      if (e.area === 'DT' && typeof e.register_area_end === 'number' && e.register_area_end > GATEWAY_DT_LAST)
        out.push({
          section: 'pew_redirect',
          path: `threads.0.mapping.${j}.register_area_end`,
          code: 'address_out_of_range',
          params: { min: 0, max: GATEWAY_DT_LAST },
        });
    });
  }
  if (p.ok) {
    // listening ports and the transparent-interface rule against the other saved sections
    const config: Value = { ...saved };
    config.pew = p.value;
    config.pew_redirect = redirect;
    try {
      const cross = crossSectionIssues(CONFIG_SECTIONS, config);
      for (const key of ['pew', 'pew_redirect'] as const) for (const i of cross[key] ?? []) out.push({ section: key, ...i });
    } catch {
      // a port that is not a number yet is reported by the schema above
    }
  }
  return out;
}

/** The problems a step shows and that keep it from continuing. */
export function stepIssues(step: StepId, d: Draft, all: WizIssue[]): WizIssue[] {
  const ifaceAt = (id: InterfaceId) => `interfaces.${indexOf(d.pew, id)}.`;
  const keep = (i: WizIssue): boolean => {
    switch (step) {
      case 'params':
        return i.section === 'pew' && i.path.startsWith(ifaceAt(d.iface));
      case 'tcp':
        return i.section === 'pew_redirect' && i.path === 'threads.0.port';
      case 'modbus':
        return i.section === 'pew_redirect' && i.path === 'threads.1.port';
      case 'gateway':
        return d.gateway === 2 && i.section === 'pew' && i.path.startsWith(ifaceAt(d.gatewayIface));
      case 'rules':
        return i.section === 'pew_redirect' && (i.path.startsWith('threads.0.mapping') || i.path.startsWith('threads.1.mapping'));
      case 'finish':
        return true;
      default:
        return false;
    }
  };
  return all.filter(keep);
}

/** Simple mode has no gateway and no DT restrictions. */
export const simpleOnly = (d: Draft): Partial<Draft> => ({ gateway: 0, entries: d.entries.filter((e) => e.area !== 'DT') });

export function initialDraft(savedPew: Value, savedRedirect: Value): Draft {
  const base = structuredClone(savedPew) as unknown as Pew;
  const first = (savedRedirect.threads as Value[] | undefined)?.[0];
  const iface = (INTERFACE_IDS as readonly number[]).includes(first?.service as number) ? (first!.service as InterfaceId) : INTERFACE_IDS[0];
  return {
    mode: 0,
    iface,
    base,
    pew: base,
    tcpPort: DEFAULT_PORT,
    modbusPort: MODBUS_PORT,
    gateway: 0,
    gatewayIface: INTERFACE_IDS.find((id) => id !== iface)!,
    rule: 0,
    entries: [],
  };
}
