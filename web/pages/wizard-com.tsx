// /wizard_com, the PLC connection wizard (spec §2 "Wizard"): mode, interface choice, interface
// parameters, TCP listening port, Modbus listening port, Modbus gateway choice, restriction rules,
// finish; simple mode skips the Modbus port, the gateway and the DT restrictions. Each step is
// checked with the shared schemas before Continue. Finish overwrites the COM and Port settings in
// one save-all transaction (POST /config with pew and pew_redirect: all or nothing); any failure
// shows "Something went wrong" (spec §8) with the first problem and changes nothing. An input of a
// step that does not pass its check is named with its fault at Continue.

import { batch } from '@preact/signals';
import { useState } from 'preact/hooks';
import type { IssueParams } from '../../device/model/issues.ts';
import { ADDR_OFFSET_DISABLED, ETHERNET_ID, INTERFACE_IDS, INTERFACE_NAMES, INTERNAL_ID, type InterfaceId } from '../../device/model/plc.ts';
import type { ComInterface } from '../../device/model/sections/pew.ts';
import { ApiFailure, type ApiIssue, type ClientCode, post } from '../api/client.ts';
import { FieldView } from '../forms/field.tsx';
import { INTERFACE_UNITS, interfaceFields } from '../forms/interface-fields.ts';
import { named, nextRestriction, Restrictions } from '../forms/restrictions.tsx';
import { fieldText } from '../i18n/field-text.ts';
import { issueText } from '../i18n/issue-text.ts';
import { errorText, LL, labelled } from '../i18n/translate.ts';
import { navigate } from '../router/hash.tsx';
import { ask } from '../state/confirm.ts';
import { jsonEqual, setPath } from '../state/equal.ts';
import { notify, SAVED_MS } from '../state/notify.ts';
import { allSections, section } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import {
  buildPew,
  buildRedirect,
  COIL_BASE,
  checkDraft,
  type Draft,
  gatewayService,
  hasGateway,
  indexOf,
  initialDraft,
  modeAreas,
  type SectionKey,
  STEPS,
  simpleOnly,
  stepIssues,
  type Value,
  type WizIssue,
  wholeAreas,
} from './wizard-plan.ts';

// ---- pieces of the steps ----

/** where the individual entries sit in the port settings (the TCP thread is the first) */
const ENTRIES = 'threads.0.mapping';

const kindOf = (id: InterfaceId) => LL.value.com.kinds[String(id) as keyof typeof LL.value.com.kinds]();
const titleOf = (id: InterfaceId) => `${INTERFACE_NAMES[id]} · ${kindOf(id)}`;

interface ChoiceItem<T> {
  value: T;
  label: string;
  hint?: string;
  disabled?: boolean;
}

/** One choice of a step as radio buttons. */
function Choice<T extends number>(props: { name: string; legend: string; value: T; items: ChoiceItem<T>[]; onPick(v: T): void }) {
  return (
    <fieldset class="choice" data-choice={props.name}>
      <legend>{props.legend}</legend>
      {props.items.map((it) => {
        const id = `w-${props.name}-${it.value}`;
        return (
          <div class="option" key={it.value}>
            <input
              type="radio"
              id={id}
              name={`w-${props.name}`}
              value={String(it.value)}
              checked={props.value === it.value}
              disabled={readOnly.value || it.disabled}
              onChange={() => props.onPick(it.value)}
              aria-describedby={it.hint ? `${id}-hint` : undefined}
            />
            <label for={id}>{it.label}</label>
            {it.hint && (
              <small id={`${id}-hint`} class="hint">
                {it.hint}
              </small>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

interface StepProps {
  d: Draft;
  update(change: Partial<Draft>, clear?: { section: SectionKey; path: string }): void;
  problem(section: SectionKey, path: string): { code: ClientCode; params?: IssueParams } | undefined;
}

/** The parameters of one interface, as on /com; the wizard switches the interface on itself. */
function InterfaceParams({ d, update, problem, id }: StepProps & { id: InterfaceId }) {
  const t = LL.value.wizard;
  const index = indexOf(d.pew, id);
  const iface = d.pew.interfaces[index] as ComInterface | undefined;
  if (!iface)
    return (
      <p class="error" role="alert">
        {errorText('interface_not_ready')}
      </p>
    );
  const set = (path: string, v: unknown) => update({ pew: setPath(d.pew, path, v) }, { section: 'pew', path });
  const field = (f: string) => {
    const path = `interfaces.${index}.${f}`;
    return (
      <FieldView
        key={f}
        section="pew"
        path={path}
        value={(iface as unknown as Value)[f]}
        unit={INTERFACE_UNITS[f]}
        problem={problem('pew', path)}
        onChange={(v) => set(path, v)}
      />
    );
  };
  const offsetPath = `interfaces.${index}.addr_offset`;
  const offsetUsed = iface.addr_offset !== ADDR_OFFSET_DISABLED;
  return (
    <div class="grid" data-params={id}>
      <p class="note" data-note="enabled">
        {t.enables({ name: INTERFACE_NAMES[id] })}
      </p>
      {interfaceFields(id)
        .filter((f) => f !== 'enabled')
        .map(field)}
      {id === INTERNAL_ID && (
        <p class="note" data-note="internal">
          {t.internal()}
        </p>
      )}
      {id === ETHERNET_ID && (
        <>
          <div class="field" data-field={`${offsetPath}.use`}>
            <label for="w-offset-use">{LL.value.com.offset()}</label>
            <div class="control">
              <select
                id="w-offset-use"
                disabled={readOnly.value}
                value={offsetUsed ? 'on' : 'off'}
                onChange={(e) => set(offsetPath, e.currentTarget.value === 'on' ? 0 : ADDR_OFFSET_DISABLED)}
              >
                <option value="off">{LL.value.com.offsetOff()}</option>
                <option value="on">{LL.value.com.offsetOn()}</option>
              </select>
            </div>
          </div>
          {offsetUsed && field('addr_offset')}
        </>
      )}
    </div>
  );
}

function PortStep({ d, update, problem, which }: StepProps & { which: 'tcp' | 'modbus' }) {
  const t = LL.value.wizard;
  const path = which === 'tcp' ? 'threads.0.port' : 'threads.1.port';
  const key = which === 'tcp' ? 'tcpPort' : 'modbusPort';
  return (
    <div class="grid">
      <FieldView
        section="pew_redirect"
        path={path}
        value={d[key]}
        label={which === 'tcp' ? t.tcpPort() : t.modbusPort()}
        problem={problem('pew_redirect', path)}
        onChange={(v) => update({ [key]: v }, { section: 'pew_redirect', path })}
      />
    </div>
  );
}

function GatewayStep(props: StepProps) {
  const { d, update } = props;
  const t = LL.value.wizard;
  const others = INTERFACE_IDS.filter((id) => id !== d.iface);
  return (
    <>
      <Choice
        name="gateway"
        legend={t.steps.gateway()}
        value={d.gateway}
        onPick={(v) => update({ gateway: v })}
        items={[
          { value: 0, label: t.gateways.none(), hint: t.gatewayHints.none() },
          { value: 1, label: t.gateways.same(), hint: t.gatewayHints.same({ name: INTERFACE_NAMES[d.iface] }) },
          { value: 2, label: t.gateways.other(), hint: t.gatewayHints.other() },
        ]}
      />
      {d.gateway !== 0 && (
        <p class="note" data-note="layout">
          {t.layout({ port: String(d.modbusPort), r: COIL_BASE.WR! })}
        </p>
      )}
      {d.gateway === 2 && (
        <>
          <Choice
            name="gateway-iface"
            legend={t.gatewayIface()}
            value={d.gatewayIface}
            onPick={(v) => update({ gatewayIface: v })}
            items={others.map((id) => ({ value: id, label: titleOf(id) }))}
          />
          <InterfaceParams {...props} id={d.gatewayIface} />
        </>
      )}
    </>
  );
}

function RulesStep(props: StepProps) {
  const { d, update, problem } = props;
  const t = LL.value.wizard;
  const areas = modeAreas(d.mode);
  const setEntries = (entries: Value[]) => update({ entries }, { section: 'pew_redirect', path: ENTRIES });
  const individual = d.rule === 2;
  const newEntry = () => {
    const e = nextRestriction(d.entries, false);
    // simple mode offers no DT restrictions: a new entry starts in the first offered area
    return areas.includes(e.area) ? e : { ...e, area: areas[0]!, register_area_start: 0, register_area_end: 0 };
  };
  return (
    <>
      <Choice
        name="rule"
        legend={t.steps.rules()}
        value={d.rule}
        onPick={(v) => update({ rule: v })}
        items={[
          { value: 0, label: t.rules.read(), hint: t.ruleHints.read() },
          { value: 1, label: t.rules.write(), hint: t.ruleHints.write() },
          { value: 2, label: t.rules.individual(), hint: d.mode === 1 ? t.ruleHints.individualDt() : t.ruleHints.individual() },
        ]}
      />
      {!individual && (
        <ul class="preview" data-preview>
          {wholeAreas(d.rule).map((r) => (
            <li key={r.area}>
              {t.entry({
                area: r.area,
                start: r.register_area_start,
                end: r.register_area_end,
                rights: LL.value.fields.pew_redirect.threads.mapping.read_write.options[r.read_write](),
              })}
            </li>
          ))}
        </ul>
      )}
      {individual && (
        <Restrictions
          path={ENTRIES}
          items={d.entries}
          gateway={false}
          areas={areas}
          problem={(p) => problem('pew_redirect', p)}
          onSet={(p, v) => update({ entries: setPath(d.entries, p.slice(ENTRIES.length + 1), v) }, { section: 'pew_redirect', path: p })}
          onAdd={() => setEntries([...d.entries, newEntry() as unknown as Value])}
          onRemove={(j) => setEntries(d.entries.filter((_, k) => k !== j))}
        />
      )}
      {hasGateway(d) && (
        <p class="note" data-note="gateway-rules">
          {individual ? t.gatewayIndividual({ r: COIL_BASE.WR! }) : t.gatewayWhole({ r: COIL_BASE.WR! })}
        </p>
      )}
    </>
  );
}

function FinishStep({ d }: { d: Draft }) {
  const t = LL.value.wizard;
  const rows: [string, string][] = [
    [t.summary.mode(), d.mode === 1 ? t.modes.advanced() : t.modes.simple()],
    [t.summary.iface(), titleOf(d.iface)],
    [t.tcpPort(), String(d.tcpPort)],
  ];
  if (d.mode === 1) {
    rows.push([t.summary.gateway(), d.gateway === 0 ? t.gateways.none() : `${t.modbusPort()} ${String(d.modbusPort)} · ${INTERFACE_NAMES[gatewayService(d)]}`]);
  }
  rows.push([t.summary.rules(), d.rule === 0 ? t.rules.read() : d.rule === 1 ? t.rules.write() : t.summary.entries({ count: d.entries.length })]);
  return (
    <>
      <dl class="facts" data-summary>
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      <p class="banner warning" data-note="overwrite">
        {t.overwrite()}
      </p>
    </>
  );
}

// ---- the wizard ----

/** "<field>: <message>" in the wizard's words. */
function problemText(i: Pick<WizIssue, 'section' | 'path' | 'code' | 'params'>): string {
  const t = LL.value.wizard;
  const label =
    i.section === 'pew_redirect' && i.path === 'threads.0.port'
      ? t.tcpPort()
      : i.section === 'pew_redirect' && i.path === 'threads.1.port'
        ? t.modbusPort()
        : i.path
          ? fieldText(i.section, i.path).label
          : '';
  const p = i.section === 'pew_redirect' ? (named(i, ENTRIES) ?? i) : i;
  return label ? labelled(label, issueText(i.section, p.code, p.params)) : issueText(i.section, p.code, p.params);
}

export default function WizardPage() {
  const [initial] = useState(() => initialDraft(section('pew').saved.value, section('pew_redirect').saved.value));
  const [d, setDraft] = useState<Draft>(initial);
  const [at, setAt] = useState(0);
  const [failure, setFailure] = useState('');
  const [serverIssues, setServerIssues] = useState<WizIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const t = LL.value.wizard;
  const steps = STEPS[d.mode];
  const step = steps[Math.min(at, steps.length - 1)]!;
  const last = at >= steps.length - 1;

  const saved = Object.fromEntries(allSections().map((x) => [x.key, x.saved.value]));
  const own = checkDraft(d, saved, step === 'modbus' ? true : hasGateway(d));
  const shown = stepIssues(step, d, [...serverIssues, ...own]);
  const problem = (s: SectionKey, path: string) => shown.find((i) => i.section === s && i.path === path);

  const update: StepProps['update'] = (change, clear) => {
    setDraft({ ...d, ...change });
    setFailure('');
    if (clear) setServerIssues(serverIssues.filter((i) => !(i.section === clear.section && i.path.startsWith(clear.path))));
  };
  // an input of this step to correct: the field and its fault ("Something went wrong" is for a
  // Finish that failed, spec §8)
  const blocked = (issues = shown): boolean => {
    const first = issues[0];
    if (!first) return false;
    setFailure(problemText(first));
    return true;
  };
  const next = () => {
    if (blocked()) return;
    setFailure('');
    setAt(at + 1);
  };
  const back = () => {
    setFailure('');
    setAt(Math.max(0, at - 1));
  };
  const cancel = async () => {
    const l = LL.value.wizard;
    if (!jsonEqual(d, initial) && !(await ask({ title: l.cancelTitle(), text: l.cancelText(), yes: l.discard(), no: l.stay() }))) return;
    await navigate('/port');
  };
  const finish = async () => {
    // the daemon's last refusal is not repeated here: it decides again on this request
    if (blocked(stepIssues(step, d, own)) || readOnly.value) return;
    setBusy(true);
    const body = { pew: buildPew(d), pew_redirect: buildRedirect(d) };
    try {
      const saved = await post<Record<SectionKey, Value>>('/config', body);
      batch(() => {
        for (const key of ['pew', 'pew_redirect'] as const) {
          const s = section(key);
          const value = saved[key] ?? body[key];
          s.saved.value = value as Value;
          s.temp.value = value as Value;
          s.fetchFailed.value = false;
          s.serverIssues.value = [];
        }
      });
      notify('info', LL.value.form.notice.saved(), SAVED_MS);
      await navigate('/port');
    } catch (e) {
      const f = e instanceof ApiFailure ? e : new ApiFailure(0, 'internal');
      const issues = f.issues.map((i: ApiIssue) => ({ ...i, section: (i.section === 'pew' ? 'pew' : 'pew_redirect') as SectionKey }));
      setServerIssues(issues);
      setFailure(`${t.failed()} ${issues[0] ? problemText(issues[0]) : errorText(f.code, f.params)}`);
    } finally {
      setBusy(false);
    }
  };

  const props: StepProps = { d, update, problem };
  let body: preact.JSX.Element;
  switch (step) {
    case 'mode':
      body = (
        <Choice
          name="mode"
          legend={t.steps.mode()}
          value={d.mode}
          onPick={(v) => update({ mode: v, ...(v === 0 ? simpleOnly(d) : {}) })}
          items={[
            { value: 0, label: t.modes.simple(), hint: t.modeHints.simple() },
            { value: 1, label: t.modes.advanced(), hint: t.modeHints.advanced() },
          ]}
        />
      );
      break;
    case 'iface':
      body = (
        <Choice
          name="iface"
          legend={t.steps.iface()}
          value={d.iface}
          onPick={(v) => update({ iface: v, ...(d.gatewayIface === v ? { gatewayIface: INTERFACE_IDS.find((id) => id !== v)! } : {}) })}
          items={INTERFACE_IDS.map((id) => {
            const now = d.pew.interfaces[indexOf(d.pew, id)];
            return { value: id, label: titleOf(id), hint: now?.enabled ? t.isEnabled({ protocol: now.protocol }) : t.isDisabled() };
          })}
        />
      );
      break;
    case 'params':
      body = <InterfaceParams {...props} id={d.iface} />;
      break;
    case 'tcp':
    case 'modbus':
      body = <PortStep {...props} which={step} />;
      break;
    case 'gateway':
      body = <GatewayStep {...props} />;
      break;
    case 'rules':
      body = <RulesStep {...props} />;
      break;
    default:
      body = <FinishStep d={d} />;
  }

  return (
    <div class="wizard" data-page="wizard_com" data-step={step}>
      <ol class="steps" aria-label={t.progress()}>
        {steps.map((s, i) => (
          <li key={s} data-step-item={s} class={i === at ? 'current' : i < at ? 'done' : ''} aria-current={i === at ? 'step' : undefined}>
            {t.steps[s]()}
          </li>
        ))}
      </ol>
      <section class="card" aria-labelledby="wizard-step-title">
        <h2 id="wizard-step-title">{t.stepTitle({ n: at + 1, count: steps.length, name: t.steps[step]() })}</h2>
        <p class="hint" data-note="step">
          {t.notes[step]()}
        </p>
        {body}
      </section>
      {failure && (
        <p class="banner error" role="alert" data-failure>
          {failure}
        </p>
      )}
      <div class="row between wizard-nav">
        <button type="button" class="btn" data-action="cancel" onClick={() => void cancel()}>
          {t.cancel()}
        </button>
        <div class="row">
          <button type="button" class="btn" data-action="back" disabled={at === 0 || busy} onClick={back}>
            {t.back()}
          </button>
          {last ? (
            <button
              type="button"
              class="btn primary"
              data-action="finish"
              disabled={readOnly.value || busy}
              aria-busy={busy || undefined}
              onClick={() => void finish()}
            >
              {t.finish()}
            </button>
          ) : (
            <button type="button" class="btn primary" data-action="continue" onClick={next}>
              {t.continue()}
            </button>
          )}
        </div>
      </div>
    </div>
  );
}
