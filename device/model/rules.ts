// Rules that span sections (spec §5, §9). Pure functions used by the daemon on save and by the
// console while editing, so both report the same codes.

import { UNALLOWED_PORTS } from './fields.ts';
import { type Issue, issue } from './issues.ts';
import { INTERFACE_NAMES, type InterfaceId, TRANSPARENT } from './plc.ts';
import { parseScript } from './script/parse.ts';
import type { SectionDef } from './section.ts';
import type { Log } from './sections/log.ts';
import type { Mqtt } from './sections/mqtt.ts';
import { isSparkplugId } from './sections/mqtt.ts';
import type { Pew } from './sections/pew.ts';
import { sparkplugDeviceId, sparkplugMetricName } from './sparkplug.ts';

/** Issues per section key. */
export type IssuesBySection = Record<string, Issue[]>;

export interface CrossOptions {
  /** TCP ports the unit's own system already listens on (hw.systemTcpPorts) */
  systemPorts?: readonly number[];
  /** TCP ports the console itself listens on (HTTP, and HTTPS when it is served over TLS) */
  consolePorts?: readonly number[];
}

interface Located {
  section: string;
  path: string;
}
const where = (l: Located) => `${l.section}.${l.path}`;

function push(out: IssuesBySection, section: string, i: Issue): void {
  (out[section] ??= []).push(i);
}

/**
 * spec §5, §9: control-register blocks on the service control interface must not overlap
 * ('addresses overlap'); every overlapping pair is reported on both sides.
 */
function registerOverlaps(defs: readonly SectionDef[], config: Record<string, unknown>, out: IssuesBySection): void {
  const blocks = defs.flatMap((d) => (d.registers?.(config[d.key] as never) ?? []).map((b) => ({ ...b, section: d.key, end: b.start + b.length - 1 })));
  for (let i = 0; i < blocks.length; i++)
    for (let j = i + 1; j < blocks.length; j++) {
      const a = blocks[i]!;
      const b = blocks[j]!;
      if (a.start > b.end || b.start > a.end) continue;
      push(out, a.section, issue(a.path, 'addresses_overlap', { other: where(b), start: b.start, end: b.end }));
      push(out, b.section, issue(b.path, 'addresses_overlap', { other: where(a), start: a.start, end: a.end }));
    }
}

/** spec §5: listening ports must be unique across sections and not taken by the system. */
function portConflicts(defs: readonly SectionDef[], config: Record<string, unknown>, opts: CrossOptions, out: IssuesBySection): void {
  const uses = defs.flatMap((d) => (d.ports?.(config[d.key] as never) ?? []).map((p) => ({ ...p, section: d.key })));
  const system = new Set(opts.systemPorts ?? []);
  const consolePorts = new Set(opts.consolePorts ?? []);
  uses.forEach((u, i) => {
    if ((UNALLOWED_PORTS as readonly number[]).includes(u.port)) return; // the field itself reports it
    if (consolePorts.has(u.port)) push(out, u.section, issue(u.path, 'port_console', { port: u.port }));
    else if (system.has(u.port)) push(out, u.section, issue(u.path, 'port_system', { port: u.port }));
    const other = uses.find((o, j) => j !== i && o.port === u.port);
    if (other) push(out, u.section, issue(u.path, 'port_conflict', { port: u.port, other: where(other) }));
  });
}

/**
 * spec §5: a transparent COM interface cannot be used for service control, the data logger or
 * insert-without-PLC. Reported on the using section and on the interface in pew.
 */
function transparentUses(defs: readonly SectionDef[], config: Record<string, unknown>, out: IssuesBySection): void {
  const pew = config.pew as Pew | undefined;
  if (!pew?.interfaces) return;
  const transparent = (id: number) => pew.interfaces.find((i) => i.id === id)?.service === TRANSPARENT;
  const flagged = new Set<number>();
  const flag = (section: string, path: string, id: number) => {
    push(out, section, issue(path, 'transparent_interface', { interface: INTERFACE_NAMES[id as InterfaceId] ?? String(id) }));
    flagged.add(id);
  };
  for (const d of defs) {
    const value = config[d.key] as never;
    const control = d.registers?.(value)[0];
    if (control && transparent(pew.interface_plc)) flag(d.key, control.path, pew.interface_plc);
    for (const use of d.interfaces?.(value) ?? []) if (transparent(use.interfaceId)) flag(d.key, use.path, use.interfaceId);
  }
  pew.interfaces.forEach((it, i) => {
    if (flagged.has(it.id)) push(out, 'pew', issue(`interfaces.${i}.service`, 'transparent_interface', { interface: it.name }));
  });
}

/**
 * An enabled script must have no errors (model/script): each error of the text is one issue on the
 * script's text and on the switch, so neither the text nor the switch is saved while it would run.
 */
function scriptErrors(config: Record<string, unknown>, out: IssuesBySection): void {
  const enabled = (config.pew_script as { enable_script?: unknown } | undefined)?.enable_script === true;
  const content = (config.script_file as { content?: unknown } | undefined)?.content;
  if (!enabled || typeof content !== 'string') return;
  for (const e of parseScript(content).errors) {
    const params = { ...e.params, line: e.line, column: e.column, script: e.code };
    push(out, 'script_file', issue('content', 'script_invalid', params));
    push(out, 'pew_script', issue('enable_script', 'script_invalid', params));
  }
}

/**
 * The Sparkplug B edge node (pew_mqtt.sparkplug_*), when on: an empty device id stands for the PLC
 * interface's name, which must then be a valid id, else the device id is required; and no two
 * points of the device (read on the PLC's interface) may have metric names (sparkplug.ts) equal but
 * for case (case-sensitivity-metric-names).
 */
function sparkplugRules(config: Record<string, unknown>, out: IssuesBySection): void {
  const mqtt = config.pew_mqtt as Mqtt | undefined;
  const pew = config.pew as Pew | undefined;
  if (!mqtt?.sparkplug_enable || !pew?.interfaces) return;
  if (!mqtt.sparkplug_device_id && !isSparkplugId(sparkplugDeviceId(mqtt, pew))) push(out, 'pew_mqtt', issue('sparkplug_device_id', 'required'));
  const seen = new Set<string>();
  (config.pew_log as Log | undefined)?.log_def?.forEach((f, i) =>
    f.records.forEach((r, j) => {
      const name = sparkplugMetricName(f, r).toLowerCase();
      if (r.if !== pew.interface_plc) return;
      if (seen.has(name)) push(out, 'pew_log', issue(`log_def.${i}.records.${j}.name`, 'duplicate'));
      seen.add(name);
    }),
  );
}

/** All cross-section issues of a complete configuration (section key → value). */
export function crossSectionIssues(defs: readonly SectionDef[], config: Record<string, unknown>, opts: CrossOptions = {}): IssuesBySection {
  const out: IssuesBySection = {};
  registerOverlaps(defs, config, out);
  portConflicts(defs, config, opts, out);
  transparentUses(defs, config, out);
  scriptErrors(config, out);
  sparkplugRules(config, out);
  return out;
}
