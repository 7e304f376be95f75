// /com (spec §2 "COM interface page: interface, PLC settings, restart, reset"; §3 "COM (pew)"):
// one block per interface in the spec order with the fields that apply to it, its live link
// status (spec §9 update tick) and its PLC test; then the PLC settings with the restart. Save and
// reset are in the page bar.
import { useEffect } from 'preact/hooks';
import {
  ADDR_OFFSET_DISABLED,
  ETHERNET_ID,
  INTERFACE_IDS,
  INTERFACE_NAMES,
  INTERNAL_ID,
  INTERNAL_USER_WORDS,
  type InterfaceId,
  TRANSPARENT,
} from '../../device/model/plc.ts';
import { ApiFailure } from '../api/client.ts';
import { resetLinkCounters } from '../api/com.ts';
import { Field, FieldGroup } from '../forms/field.tsx';
import { INTERFACE_UNITS, interfaceFields } from '../forms/interface-fields.ts';
import { BlockLink, OverviewCard, type OverviewColumn } from '../forms/overview.tsx';
import { fieldOptions, fieldText } from '../i18n/field-text.ts';
import { errorText, formatDateTime, formatNumber, formatValue, LL } from '../i18n/translate.ts';
import { stepping, useSteps } from '../shell/in-steps.tsx';
import { comStatus, comStatusFailed, earlyComStatus, watchComStatus } from '../state/com-status.ts';
import { notify } from '../state/notify.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import { busyPercent, LinkStatusView, PlcTest } from './com-link.tsx';
import { LinkState } from './link-states.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyComStatus();

const KEY = 'pew';
const INTERNAL_MEMORY = { min: 0, max: INTERNAL_USER_WORDS - 1 };

interface Iface {
  id: InterfaceId;
  enabled: boolean;
  service: number;
  protocol: string;
  autobaud: boolean;
  baudrate: number;
  bits: number;
  parity: string;
  stopbits: number;
  ip_port: string;
  addr_offset: unknown;
}

const kindOf = (id: InterfaceId) => LL.value.com.kinds[String(id) as keyof typeof LL.value.com.kinds]();
const titleOf = (id: InterfaceId) => `${INTERFACE_NAMES[id]} · ${kindOf(id)}`;

/** COM4's address offset: a clear choice between disabled (-32768) and an offset in its range. */
function OffsetField({ index, value }: { index: number; value: unknown }) {
  const t = LL.value.com;
  const path = `interfaces.${index}.addr_offset`;
  const id = `f-${KEY}-interfaces-${index}-addr_offset-use`;
  const used = value !== ADDR_OFFSET_DISABLED;
  return (
    <>
      <div class="field" data-field={`${path}.use`}>
        <label for={id}>{t.offset()}</label>
        <div class="control">
          <select
            id={id}
            disabled={readOnly.value}
            value={used ? 'on' : 'off'}
            onChange={(e) => setField(KEY, path, e.currentTarget.value === 'on' ? 0 : ADDR_OFFSET_DISABLED)}
          >
            <option value="off">{t.offsetOff()}</option>
            <option value="on">{t.offsetOn()}</option>
          </select>
        </div>
      </div>
      {used && <Field section={KEY} path={path} />}
    </>
  );
}

/** A field's help shows once, in the first block that has the field: the blocks below repeat only its range. */
const helpShownAbove = (id: InterfaceId, field: string) =>
  INTERFACE_IDS.slice(0, INTERFACE_IDS.indexOf(id)).some((above) => interfaceFields(above).includes(field));

function InterfaceBlock({ index, iface }: { index: number; iface: Iface }) {
  const t = LL.value.com;
  const id = iface.id;
  const link = comStatus.value?.links.find((l) => l.id === id);
  return (
    <section class={`card group iface${iface.enabled ? '' : ' off'}`} aria-labelledby={`com-if-${id}`} data-interface={id}>
      <h2 id={`com-if-${id}`} tabIndex={-1}>
        {titleOf(id)}
      </h2>
      {!iface.enabled && (
        <p class="hint" data-off>
          {t.off()}
        </p>
      )}
      <div class="grid">
        {interfaceFields(id).map((f) => (
          <Field key={f} section={KEY} path={`interfaces.${index}.${f}`} unit={INTERFACE_UNITS[f]} {...(helpShownAbove(id, f) ? { help: '' } : {})} />
        ))}
        {id === INTERNAL_ID && (
          <>
            <div class="field" data-field="protocol-fixed">
              <span class="label">{fieldText(KEY, `interfaces.${index}.protocol`).label}</span>
              <span>{t.protocolFixed()}</span>
            </div>
            <p class="note" data-note="memory">
              {t.internalNote(INTERNAL_MEMORY)}
            </p>
          </>
        )}
        {id === ETHERNET_ID && <OffsetField index={index} value={iface.addr_offset} />}
      </div>
      <LinkStatusView link={link} failed={comStatusFailed.value} />
      <PlcTest id={id} sectionKey={KEY} />
    </section>
  );
}

/** The line settings in the usual short form: "9600 8O1" (autobaud instead of the rate), the PLC's address on Ethernet. */
function settingsOf(iface: Iface): string {
  if (iface.id === INTERNAL_ID) return '–';
  if (iface.id === ETHERNET_ID) return iface.ip_port || '–';
  const format = `${iface.bits}${iface.parity.charAt(0).toUpperCase()}${iface.stopbits}`;
  return `${iface.autobaud ? fieldText(KEY, 'interfaces.0.autobaud').label : formatValue(iface.baudrate)} ${format}`;
}

/** One row per interface (the running link's state first, where a phone shows it without scrolling; the form's settings; the link's counters), each leading to its block. */
function ComOverview({ interfaces }: { interfaces: Iface[] }) {
  const t = LL.value.com;
  const protocols = fieldOptions(KEY, 'interfaces.0.protocol');
  const failed = comStatusFailed.value;
  const columns: OverviewColumn[] = [
    { key: 'interface', head: t.columns.interface() },
    { key: 'state', head: t.columns.state() },
    { key: 'enabled', head: t.columns.enabled() },
    { key: 'protocol', head: t.columns.protocol() },
    { key: 'settings', head: t.columns.settings() },
    { key: 'requests', head: t.stats.requests(), num: true },
    { key: 'errors', head: t.stats.errors(), num: true },
    { key: 'busy', head: t.stats.busyShare(), num: true },
    { key: 'since', head: t.columns.since() },
  ];
  const rows = interfaces.map((iface) => {
    const link = comStatus.value?.links.find((l) => l.id === iface.id);
    const stats = link?.stats;
    return {
      key: String(iface.id),
      attrs: { 'data-overview-interface': iface.id },
      cells: {
        interface: <BlockLink headingId={`com-if-${iface.id}`}>{INTERFACE_NAMES[iface.id]}</BlockLink>,
        enabled: iface.enabled ? t.yes() : t.no(),
        protocol: protocols[iface.protocol] ?? iface.protocol,
        settings: settingsOf(iface),
        state: link ? <LinkState link={link} /> : failed ? t.unavailable() : '…',
        requests: stats ? formatNumber(stats.requests) : '',
        errors: stats ? formatNumber(stats.errors) : '',
        busy: stats ? busyPercent(stats.busyShare) : '',
        since: stats?.since !== undefined ? formatDateTime(stats.since) : '',
      },
    };
  });
  const actions = readOnly.value ? undefined : (
    <button type="button" data-action="reset-counters" disabled={!comStatus.value} onClick={() => void resetCounters()}>
      {t.resetCounters()}
    </button>
  );
  return <OverviewCard name="com" title={t.overview()} hint={t.overviewHint()} columns={columns} rows={rows} actions={actions} />;
}

/** Starts the counters of every running link again from 0 (audited by the unit); the table shows the answer at once. */
async function resetCounters(): Promise<void> {
  try {
    comStatus.value = await resetLinkCounters();
    comStatusFailed.value = false;
  } catch (e) {
    notify('error', errorText(e instanceof ApiFailure ? e.code : 'internal', e instanceof ApiFailure ? e.params : undefined));
  }
}

/**
 * spec §5: a transparent interface cannot be used for service control. Shown at the field as soon
 * as the chosen interface is transparent; the schema's own rules (or the daemon's answer) may report
 * the same code there, and then the field shows it once.
 */
function TransparentNote({ interfaces, plcId }: { interfaces: Iface[]; plcId: unknown }) {
  const s = section(KEY);
  const chosen = interfaces.find((i) => i.id === plcId);
  if (chosen?.service !== TRANSPARENT) return null;
  const atField = [...s.shownValidation.value.issues, ...s.serverIssues.value].some((i) => i.path === 'interface_plc' && i.code === 'transparent_interface');
  if (atField) return null;
  return (
    <p class="error" role="alert" data-rule="transparent_interface">
      {errorText('transparent_interface', { interface: INTERFACE_NAMES[chosen.id] })}
    </p>
  );
}

export default function ComPage() {
  useEffect(() => watchComStatus(), []);
  const t = LL.value.com;
  const p = section(KEY).temp.value;
  const interfaces = (Array.isArray(p.interfaces) ? p.interfaces : []) as Iface[];
  const plcLabels = Object.fromEntries(INTERFACE_IDS.map((id) => [String(id), titleOf(id)]));
  const blocks = INTERFACE_IDS.map((id) => interfaces.findIndex((i) => i.id === id));
  // in steps (web/shell/in-steps.tsx): the overview with the links' states, then one block a step
  const count = blocks.length + 2;
  const shown = useSteps(count);
  return (
    <div class="com" data-page="com" {...stepping(shown, count)}>
      <ComOverview interfaces={INTERFACE_IDS.flatMap((id) => interfaces.filter((i) => i.id === id))} />
      {blocks.map((index, k) => (index < 0 || k + 2 > shown ? null : <InterfaceBlock key={INTERFACE_IDS[k]} index={index} iface={interfaces[index]!} />))}
      {shown >= count && (
        <FieldGroup title={t.plc()} id="com-plc">
          <div class="field-wrap" data-field-wrap="interface_plc">
            <Field section={KEY} path="interface_plc" optionLabels={plcLabels} />
            <TransparentNote interfaces={interfaces} plcId={p.interface_plc} />
          </div>
          <Field section={KEY} path="address_plc" />
          <h3 class="sub">{t.restart()}</h3>
          <Field section={KEY} path="restart_by_plc" />
          <Field section={KEY} path="restart_level" />
          <Field section={KEY} path="restart_polling" unit="s" />
          <Field section={KEY} path="restart_control_r.bit" />
          <Field section={KEY} path="restart_by_time" unit="h" />
        </FieldGroup>
      )}
    </div>
  );
}
