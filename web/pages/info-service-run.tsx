// The unit at work on /info (spec §2 /info; design/services.md "Status everywhere"): one line per PLC
// link, redirect thread, service and the data logger with its state and why it is not as it should be,
// each linked to its page where the full status shows. The services come from the one status answer
// with since when, the jobs waiting in their queue, their dead letters and the last error's code and
// time (until the service has succeeded since; web/forms/service-status.tsx); the links, threads and
// logger from their pages' status answers (web/pages/link-states.tsx, log-status.tsx).
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import type { StatusService } from '../../device/model/service-status.ts';
import { errorMeaning, RunState } from '../forms/service-status.tsx';
import { StatusPending } from '../forms/status-list.tsx';
import { formatDateTime, formatNumber, LL, labelled } from '../i18n/translate.ts';
import type { PageId } from '../pages.ts';
import { comStatus, comStatusFailed, watchComStatus } from '../state/com-status.ts';
import { logStatus, logStatusFailed, watchLogStatus } from '../state/log-status.ts';
import { portStatus, portStatusFailed, watchPortStatus } from '../state/port-status.ts';
import { servicesStatus, servicesStatusFailed, watchServicesStatus } from '../state/service-status.ts';
import { LinkState, ThreadState } from './link-states.tsx';
import { LoggerWriteState } from './log-status.tsx';

/** the page each service is set on */
const PAGE: Record<StatusService, PageId> = {
  mqtt: 'mqtt',
  httpc: 'httpc',
  email: 'smtp',
  sql: 'sql',
  nosql: 'db',
  script: 'script',
  ftp: 'ftp',
  tls: 'tls',
  rtc: 'datetime',
  iec: 'iec',
};

/** One group of lines: its heading, then "status unavailable" or the lines once there is an answer. */
function Group({ id, title, failed, empty, children }: { id: string; title: string; failed: boolean; empty?: string; children: ComponentChildren[] | null }) {
  return (
    <div class="at-work-group" data-group={id}>
      <h3 id={`info-run-${id}`}>{title}</h3>
      {failed || !children ? (
        <StatusPending failed={failed} />
      ) : children.length === 0 ? (
        <p class="hint" data-none>
          {empty}
        </p>
      ) : (
        <dl class="facts" data-status="ok" aria-labelledby={`info-run-${id}`}>
          {children}
        </dl>
      )}
    </div>
  );
}

function Line({ page, name, attrs, children }: { page: PageId; name: string; attrs: Record<string, string | number>; children: ComponentChildren }) {
  return (
    <div {...attrs}>
      <dt>
        <a href={`#/${page}`}>{name}</a>
      </dt>
      <dd>{children}</dd>
    </div>
  );
}

function ServiceLines() {
  const t = LL.value.serviceStatus;
  return (servicesStatus.value?.services ?? []).map((s) => (
    <Line key={s.service} page={PAGE[s.service]} name={LL.value.nav[PAGE[s.service]]()} attrs={{ 'data-service-run': s.service }}>
      <RunState s={s} />
      {s.enabled && <span class="detail" data-since>{` ${labelled(t.since(), formatDateTime(s.since))}`}</span>}
      {s.queue.waiting > 0 && <span class="detail" data-queue>{` · ${labelled(t.queue(), formatNumber(s.queue.waiting))}`}</span>}
      {(s.deadLetters?.count ?? 0) > 0 && <span class="detail" data-dead-letters>{` · ${labelled(t.deadLetters(), formatNumber(s.deadLetters!.count))}`}</span>}
      {s.enabled && s.lastError && !(s.lastSuccess !== undefined && s.lastSuccess > s.lastError.at) && (
        // the last error with its time, until the service has succeeded since
        <span class="detail" data-code={s.lastError.code}>{` · ${errorMeaning(t, s.lastError)} · ${formatDateTime(s.lastError.at)}`}</span>
      )}
    </Line>
  ));
}

export function ServiceRunCard() {
  useEffect(() => {
    const stops = [watchComStatus(), watchPortStatus(), watchServicesStatus(), watchLogStatus()];
    return () => {
      for (const stop of stops) stop();
    };
  }, []);
  const t = LL.value.serviceStatus;
  const links = comStatus.value?.links;
  const threads = portStatus.value?.threads;
  const logger = logStatus.value;
  return (
    <section class="card" aria-labelledby="info-service-run" data-block="service-run">
      <h2 id="info-service-run">{t.runTitle()}</h2>
      <p class="hint">{t.runIntro()}</p>
      <div class="at-work">
        <Group id="links" title={t.groups.links()} failed={comStatusFailed.value}>
          {links?.map((l) => (
            <Line key={l.id} page="com" name={l.name} attrs={{ 'data-link-run': l.id }}>
              <LinkState link={l} />
            </Line>
          )) ?? null}
        </Group>
        <Group id="threads" title={t.groups.threads()} failed={portStatusFailed.value} empty={t.noThreads()}>
          {threads?.map((th) => (
            <Line key={th.index} page="port" name={LL.value.port.threadN({ n: th.index + 1 })} attrs={{ 'data-thread-run': th.index }}>
              <ThreadState status={th} />
            </Line>
          )) ?? null}
        </Group>
        <Group id="services" title={t.groups.services()} failed={servicesStatusFailed.value}>
          {servicesStatus.value ? ServiceLines() : null}
        </Group>
        <Group id="logger" title={t.groups.logger()} failed={logStatusFailed.value}>
          {logger
            ? [
                <Line key="logger" page="log" name={LL.value.nav.log()} attrs={{ 'data-logger-run': logger.enabled ? logger.write.state : 'off' }}>
                  {logger.enabled ? <LoggerWriteState write={logger.write} /> : <span data-state="off">{t.loggerOff()}</span>}
                </Line>,
              ]
            : null}
        </Group>
      </div>
    </section>
  );
}
