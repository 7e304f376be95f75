// /iec (spec §2; §3 "IEC 60870 (pew_60870)"; §5 IEC rules and the "IEC 60870 unencrypted" warning;
// §9 IEC limits): the server settings and up to 4 redundant connections, each with its PLC buffers,
// protocol parameters and allowed clients. The timer, window and buffer rules come from the model
// (device/model/sections/iec.ts), so the console shows the codes the daemon answers. Save and reset
// are in the page bar. The station's live status is at the top (iec-live.tsx); the unencrypted
// warning shows while the station is on in the saved settings, listens, or is being switched on.
import { batch } from '@preact/signals';
import { isAllAddresses } from '../../device/model/ip.ts';
import { withDefaults } from '../../device/model/section.ts';
import { CONTROL_BUFFER, connectionSchema, MAX_CONNECTIONS } from '../../device/model/sections/iec.ts';
import { Field, FieldGroup, problemAt } from '../forms/field.tsx';
import { errorText, LL } from '../i18n/translate.ts';
import { iecListening } from '../state/iec-status.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import { IecLiveBlock } from './iec-live.tsx';
import { SecurityHint } from './service-parts.tsx';

const KEY = 'pew_60870';
type Value = Record<string, unknown>;

const connectionsOf = (v: Value) => (Array.isArray(v.connections) ? v.connections : []) as Value[];

/** Replaces the connection list; the server's issues name list positions, so they are dropped. */
function setConnections(list: Value[]): void {
  batch(() => {
    setField(KEY, 'connections', list);
    section(KEY).serverIssues.value = [];
  });
}

/** The registers a buffer takes in its area, e.g. "Uses DT1010 – DT1109 (100 registers)". */
function Footprint({ area, start, length }: { area: unknown; start: unknown; length: unknown }) {
  if (!Number.isInteger(start) || !Number.isInteger(length) || (length as number) < 1) return null;
  const first = start as number;
  const count = length as number;
  return (
    <p class="footprint" data-footprint>
      {LL.value.iec.footprint({ area: String(area), first, last: first + count - 1, count })}
    </p>
  );
}

function ConnectionBlock({ index, c }: { index: number; c: Value }) {
  const t = LL.value.iec;
  const at = `connections.${index}`;
  const f = (name: string, unit?: string) => <Field section={KEY} path={`${at}.${name}`} {...(unit ? { unit } : {})} />;
  const remove = () => setConnections(connectionsOf(section(KEY).temp.value).filter((_, j) => j !== index));
  return (
    <section class="card group" aria-labelledby={`iec-conn-${index}`} data-connection={index}>
      <div class="row between">
        <h2 id={`iec-conn-${index}`}>{t.connection({ n: index + 1 })}</h2>
        <button type="button" class="btn small" data-action="remove-connection" disabled={readOnly.value} onClick={remove}>
          {t.remove()}
        </button>
      </div>
      <div class="grid">
        <h3 class="sub">{t.buffers()}</h3>
        {f('area')}
        {f('plc_buffer_rbm')}
        {f('plc_buffer_m')}
        {f('plc_buffer_m_depth')}
        <Footprint area={c.area} start={c.plc_buffer_m} length={c.plc_buffer_m_depth} />
        {f('plc_buffer_c')}
        <Footprint area={c.area} start={c.plc_buffer_c} length={CONTROL_BUFFER} />
        <h3 class="sub">{t.protocol()}</h3>
        {f('t1', 's')}
        {f('t2', 's')}
        {f('t3', 's')}
        {f('k')}
        {f('w')}
        {f('testfrm_in_stop_dt')}
        {f('testfrm_in_start_dt')}
        {f('timeout', 'ms')}
        {f('lock_mode')}
        <h3 class="sub">{t.clients()}</h3>
        {f('ip1')}
        {f('ip2')}
        {typeof c.ip1 === 'string' && typeof c.ip2 === 'string' && isAllAddresses(c.ip1, c.ip2) && (
          <p class="note" data-note="all-addresses">
            {LL.value.port.allAddresses()}
          </p>
        )}
      </div>
    </section>
  );
}

export default function IecPage() {
  const t = LL.value.iec;
  const m = section(KEY).temp.value;
  const list = connectionsOf(m);
  const full = list.length >= MAX_CONNECTIONS;
  const address = m.asdu_address;
  const listProblem = problemAt(KEY, 'connections');
  const add = () => {
    if (full) return;
    setConnections([...list, withDefaults(connectionSchema, {}) as Value]);
  };
  return (
    <div class="service" data-page="iec">
      <SecurityHint section={KEY} codes={['open_tcp_port']} />
      {(m.enable_60870 === true || section(KEY).saved.value.enable_60870 === true || iecListening.value) && (
        <p class="banner warning" role="note" data-banner="iec-unencrypted">
          {t.unencrypted()}
        </p>
      )}
      <IecLiveBlock />
      <FieldGroup title={t.server()} id="iec-server">
        <Field section={KEY} path="enable_60870" />
        <Field section={KEY} path="asdu_address" />
        <Field section={KEY} path="asdu_structured" />
        {m.asdu_structured === true && Number.isInteger(address) && (
          <p class="note" data-note="structured">
            {t.structured({ hi: (address as number) >> 8, lo: (address as number) & 255 })}
          </p>
        )}
        <Field section={KEY} path="originator" />
        <Field section={KEY} path="port" />
        <Field section={KEY} path="expert_mode" />
      </FieldGroup>
      <FieldGroup title={t.plc()} id="iec-plc">
        <Field section={KEY} path="plc_poll" unit="ms" />
        <Field section={KEY} path="plc_reconnect_reset" />
        <Field section={KEY} path="plc_live_check" />
      </FieldGroup>
      <section class="card group" aria-labelledby="iec-connections" data-connections={list.length}>
        <div class="row between">
          <h2 id="iec-connections">{t.connections()}</h2>
          <button type="button" class="btn" data-action="add-connection" disabled={readOnly.value || full} onClick={add}>
            {t.add()}
          </button>
        </div>
        <p class="hint" data-count>
          {t.count({ count: list.length, max: MAX_CONNECTIONS })}
        </p>
        {full && (
          <p class="note" data-note="max-connections">
            {errorText('too_many', { max: MAX_CONNECTIONS })}
          </p>
        )}
        {list.length === 0 && (
          <p class="hint" data-note="no-connection">
            {t.none()}
          </p>
        )}
        {listProblem && (
          <p class="error" role="alert" data-error="connections">
            {errorText(listProblem.code, listProblem.params)}
          </p>
        )}
      </section>
      {list.map((c, i) => (
        <ConnectionBlock key={i} index={i} c={c} />
      ))}
    </div>
  );
}
