// /port (spec §2 "Ports and restrictions: connection test, restrictions, reset"; §3 "Port
// (pew_redirect)"; §5; §9 port entries 10, restrictions 10): one block per redirection thread with
// every field, its restrictions, its live counters (spec §9 update tick) and its connection test.
// Save and reset are in the page bar.

import { batch } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { isAllAddresses } from '../../device/model/ip.ts';
import { INTERFACE_IDS, INTERFACE_NAMES } from '../../device/model/plc.ts';
import { withDefaults } from '../../device/model/section.ts';
import { DEFAULT_PORT, MAX_RESTRICTIONS, MAX_THREADS, threadSchema } from '../../device/model/sections/redirect.ts';
import { ApiFailure } from '../api/client.ts';
import { type PortTestResult, type PortThreadStatus, resetThreadCounters, runPortTest } from '../api/port.ts';
import { Field, problemAt } from '../forms/field.tsx';
import { BlockLink, OverviewCard, type OverviewColumn } from '../forms/overview.tsx';
import { nextRestriction, Restrictions } from '../forms/restrictions.tsx';
import { TestAction, WireBox } from '../forms/test-action.tsx';
import { errorText, formatDateTime, formatNumber, LL, labelled } from '../i18n/translate.ts';
import { stepping, useSteps } from '../shell/in-steps.tsx';
import { notify } from '../state/notify.ts';
import { earlyPortStatus, portStatus, portStatusFailed, watchPortStatus } from '../state/port-status.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import { ThreadState } from './link-states.tsx';
import { SecurityHint } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyPortStatus();

const KEY = 'pew_redirect';
type Value = Record<string, unknown>;

const threadsOf = (v: Value) => (Array.isArray(v.threads) ? v.threads : []) as Value[];
const serviceLabels = Object.fromEntries(INTERFACE_IDS.map((id) => [String(id), INTERFACE_NAMES[id]]));

/** Replaces the thread list; the server's issues name list positions, so they are dropped. */
function setThreads(threads: Value[]): void {
  batch(() => {
    setField(KEY, 'threads', threads);
    section(KEY).serverIssues.value = [];
  });
}

/** The first listening port from the default on that no thread uses yet. */
function freePort(threads: Value[]): number {
  const used = new Set(threads.map((t) => t.port));
  let port = DEFAULT_PORT;
  while (used.has(port)) port++;
  return port;
}

function addThread(): void {
  const threads = threadsOf(section(KEY).temp.value);
  if (threads.length >= MAX_THREADS) return;
  setThreads([...threads, withDefaults(threadSchema, { port: freePort(threads) }) as Value]);
}

function setMapping(index: number, mapping: Value[]): void {
  batch(() => {
    setField(KEY, `threads.${index}.mapping`, mapping);
    section(KEY).serverIssues.value = section(KEY).serverIssues.value.filter((i) => !i.path.startsWith(`threads.${index}.mapping`));
  });
}

/** Listening state, detail and counters of one saved thread; "status unavailable" when the last call failed. */
function ThreadStatusView({ status, failed, saved }: { status: PortThreadStatus | undefined; failed: boolean; saved: boolean }) {
  const t = LL.value.port;
  if (!saved)
    return (
      <div class="link-status" data-status="unsaved">
        <p class="hint">{t.notSaved()}</p>
      </div>
    );
  if (failed)
    return (
      <div class="link-status" data-status="unavailable">
        <p class="hint">{t.unavailable()}</p>
      </div>
    );
  if (!status) return <div class="link-status" data-status="none" aria-busy="true" />;
  const state = status.listening ? 'listening' : 'closed';
  const counters = (['clients', 'requests', 'refused', 'errors', 'bytesIn', 'bytesOut', 'faults'] as const).map((k) => [k, formatNumber(status[k])] as const);
  return (
    <div class="link-status" data-status={state}>
      <p class="row">
        <span class="sr">{labelled(t.status(), '')}</span>
        <ThreadState status={status} />
      </p>
      <dl class="counters">
        {counters.map(([k, value]) => (
          <div key={k} data-counter={k}>
            <dt>{t.stats[k]()}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Pre({ caption, text, kind }: { caption: string; text: string; kind: 'request' | 'raw' }) {
  return <WireBox caption={caption} text={text} empty={LL.value.port.nothing()} attrs={{ 'data-text': kind }} />;
}

function TestResult({ result }: { result: PortTestResult }) {
  const t = LL.value.port;
  if (!result.ok) {
    return (
      <div class="test-result failed" data-outcome="failed" data-reason={result.reason}>
        <p class="error" data-note>{`${t.testFailed()} ${t.reasons[result.reason]()}`}</p>
        {result.request !== undefined && <Pre caption={t.request()} text={result.request} kind="request" />}
        <Pre caption={t.raw()} text={result.raw} kind="raw" />
      </div>
    );
  }
  return (
    <div class="test-result ok" data-outcome="ok">
      <p class="hint" data-note>
        {t.testOk()}
      </p>
      <Pre caption={t.request()} text={result.request} kind="request" />
      <Pre caption={t.raw()} text={result.raw} kind="raw" />
    </div>
  );
}

/** The connection test of one thread (the saved settings; the user role sees it disabled). */
function PortTest({ index }: { index: number }) {
  return (
    <TestAction
      sections={[KEY]}
      run={() => runPortTest(index)}
      action="porttest"
      attrs={{ 'data-porttest': index }}
      texts={LL.value.port}
      Result={TestResult}
    />
  );
}

/** A thread's block: its fields, then (`full`, a later step) its restrictions, status and test; only the first `rows` restrictions while the page is still stepping. */
function ThreadBlock({ index, thread, savedCount, full, rows }: { index: number; thread: Value; savedCount: number; full: boolean; rows?: number }) {
  const t = LL.value.port;
  const at = `threads.${index}`;
  const gateway = thread.mb_translation === true;
  const mapping = (Array.isArray(thread.mapping) ? thread.mapping : []) as Value[];
  const status = portStatus.value?.threads.find((s) => s.index === index);
  const remove = () => setThreads(threadsOf(section(KEY).temp.value).filter((_, j) => j !== index));
  return (
    <section class="card group thread" aria-labelledby={`port-thread-${index}`} data-thread={index} data-gateway={gateway || undefined}>
      <div class="row between">
        <h2 id={`port-thread-${index}`} tabIndex={-1}>
          {t.thread({ n: index + 1, port: String(thread.port) })}
        </h2>
        <button type="button" class="btn small" data-action="remove-thread" disabled={readOnly.value} onClick={remove}>
          {t.removeThread()}
        </button>
      </div>
      <div class="grid">
        <Field section={KEY} path={`${at}.port`} />
        <Field section={KEY} path={`${at}.service`} optionLabels={serviceLabels} />
        <Field section={KEY} path={`${at}.mb_translation`} />
        <Field section={KEY} path={`${at}.monitoring_cmd`} />
        <Field section={KEY} path={`${at}.clients`} />
        <Field section={KEY} path={`${at}.timeout`} unit="s" />
        <Field section={KEY} path={`${at}.ip_start`} />
        <Field section={KEY} path={`${at}.ip_end`} />
        {typeof thread.ip_start === 'string' && typeof thread.ip_end === 'string' && isAllAddresses(thread.ip_start, thread.ip_end) && (
          <p class="note" data-note="all-addresses">
            {t.allAddresses()}
          </p>
        )}
        {gateway && (
          <p class="note" data-note="gateway">
            {t.gatewayNote()}
          </p>
        )}
      </div>
      {full && (
        <>
          <Restrictions
            path={`${at}.mapping`}
            items={mapping}
            rows={rows}
            gateway={gateway}
            problem={(p) => problemAt(KEY, p)}
            onSet={(p, v) => setField(KEY, p, v)}
            onAdd={() => setMapping(index, [...mapping, nextRestriction(mapping, gateway)])}
            onRemove={(j) =>
              setMapping(
                index,
                mapping.filter((_, k) => k !== j),
              )
            }
          />
          <ThreadStatusView status={status} failed={portStatusFailed.value} saved={index < savedCount} />
          <PortTest index={index} />
        </>
      )}
    </section>
  );
}

/** One row per thread (the form's port, interface and restrictions, the saved thread's state and counters), each leading to its block. */
function PortOverview({ threads, savedCount }: { threads: Value[]; savedCount: number }) {
  const t = LL.value.port;
  const failed = portStatusFailed.value;
  const columns: OverviewColumn[] = [
    { key: 'thread', head: t.columns.thread() },
    { key: 'state', head: t.columns.state() },
    { key: 'port', head: t.columns.port(), num: true },
    { key: 'interface', head: t.columns.interface() },
    { key: 'clients', head: t.stats.clients(), num: true },
    { key: 'requests', head: t.stats.requests(), num: true },
    { key: 'refused', head: t.stats.refused(), num: true },
    { key: 'restrictions', head: t.columns.restrictions(), num: true },
    { key: 'since', head: LL.value.com.columns.since() },
  ];
  const rows = threads.map((thread, index) => {
    const status = index < savedCount ? portStatus.value?.threads.find((s) => s.index === index) : undefined;
    const state = index >= savedCount ? t.unsaved() : status ? <ThreadState status={status} /> : failed ? t.unavailable() : '…';
    return {
      key: String(index),
      attrs: { 'data-overview-thread': index },
      cells: {
        thread: <BlockLink headingId={`port-thread-${index}`}>{t.threadN({ n: index + 1 })}</BlockLink>,
        port: String(thread.port),
        interface: serviceLabels[String(thread.service)] ?? String(thread.service),
        state,
        clients: status ? `${formatNumber(status.clients)} / ${String(thread.clients)}` : '',
        requests: status ? formatNumber(status.requests) : '',
        refused: status ? formatNumber(status.refused) : '',
        restrictions: Array.isArray(thread.mapping) ? formatNumber(thread.mapping.length) : '0',
        since: status?.since !== undefined ? formatDateTime(status.since) : '',
      },
    };
  });
  const actions = readOnly.value ? undefined : (
    <button type="button" data-action="reset-counters" disabled={!portStatus.value} onClick={() => void resetCounters()}>
      {LL.value.com.resetCounters()}
    </button>
  );
  return <OverviewCard name="port" title={t.overview()} hint={t.overviewHint()} columns={columns} rows={rows} actions={actions} />;
}

/** Starts the counters of every thread again from 0 (audited by the unit); the table shows the answer at once. */
async function resetCounters(): Promise<void> {
  try {
    portStatus.value = await resetThreadCounters();
    portStatusFailed.value = false;
  } catch (e) {
    notify('error', errorText(e instanceof ApiFailure ? e.code : 'internal', e instanceof ApiFailure ? e.params : undefined));
  }
}

/** a thread's steps: its fields; the first rows of its restrictions, its status and test; the rest of its restrictions */
const STEPS_PER_THREAD = 3;
const FIRST_ROWS = Math.ceil(MAX_RESTRICTIONS / 2);

export default function PortPage() {
  useEffect(() => watchPortStatus(), []);
  const t = LL.value.port;
  const s = section(KEY);
  const threads = threadsOf(s.temp.value);
  const savedCount = threadsOf(s.saved.value).length;
  const full = threads.length >= MAX_THREADS;
  const listProblem = problemAt(KEY, 'threads');
  // in steps (web/shell/in-steps.tsx): the overview with the threads' states, then each thread's
  // fields, then the first half of its restrictions with its status and test, then the rest of its
  // restrictions (10 rows of six fields in one step were a render of 45-95 ms and a layout of 60-85
  // ms at CPU 4×)
  const count = 1 + STEPS_PER_THREAD * threads.length;
  const shown = useSteps(count);
  return (
    <div class="port" data-page="port" {...stepping(shown, count)}>
      <SecurityHint section={KEY} codes={['open_tcp_port']} />
      <p class="hint intro">{t.intro()}</p>
      {threads.length > 0 && <PortOverview threads={threads} savedCount={savedCount} />}
      {threads.length === 0 && (
        <p class="card hint" data-empty>
          {t.noThreads()}
        </p>
      )}
      {threads.map((thread, i) => {
        const first = 2 + STEPS_PER_THREAD * i; // the thread's first step
        return first > shown ? null : (
          <ThreadBlock key={i} index={i} thread={thread} savedCount={savedCount} full={first + 1 <= shown} rows={first + 2 <= shown ? undefined : FIRST_ROWS} />
        );
      })}
      {listProblem && (
        <p class="error" role="alert" data-list-error>
          {errorText(listProblem.code, listProblem.params)}
        </p>
      )}
      <div class="row">
        <button type="button" class="btn" data-action="add-thread" disabled={readOnly.value || full} onClick={addThread}>
          {t.addThread()}
        </button>
        {full && (
          <span class="hint" data-max>
            {errorText('too_many', { max: MAX_THREADS })}
          </span>
        )}
      </div>
    </div>
  );
}
