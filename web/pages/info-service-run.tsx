// The line per service of /info (design/services.md "Status everywhere"): every service of the one
// status answer with its state and since when, the jobs waiting in its queue, its dead letters and its last error's
// code and time (until the service has succeeded since), linked to the service's page where its full
// status shows (web/forms/service-status.tsx).
import { useEffect } from 'preact/hooks';
import type { StatusService } from '../../device/model/service-status.ts';
import { errorMeaning, RunState } from '../forms/service-status.tsx';
import { StatusPending } from '../forms/status-list.tsx';
import { formatDateTime, formatNumber, LL, labelled } from '../i18n/translate.ts';
import type { PageId } from '../pages.ts';
import { servicesStatus, servicesStatusFailed, watchServicesStatus } from '../state/service-status.ts';

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

export function ServiceRunCard() {
  useEffect(() => watchServicesStatus(), []);
  const t = LL.value.serviceStatus;
  const answer = servicesStatus.value;
  return (
    <section class="card" aria-labelledby="info-service-run" data-block="service-run">
      <h2 id="info-service-run">{t.runTitle()}</h2>
      <p class="hint">{t.runIntro()}</p>
      {servicesStatusFailed.value || !answer ? (
        <StatusPending failed={servicesStatusFailed.value} />
      ) : (
        <dl class="facts" data-status="ok">
          {answer.services.map((s) => (
            <div key={s.service} data-service-run={s.service}>
              <dt>
                <a href={`#/${PAGE[s.service]}`}>{LL.value.nav[PAGE[s.service]]()}</a>
              </dt>
              <dd>
                <RunState s={s} />
                {s.enabled && <span class="detail" data-since>{` ${labelled(t.since(), formatDateTime(s.since))}`}</span>}
                {s.queue.waiting > 0 && <span class="detail" data-queue>{` · ${labelled(t.queue(), formatNumber(s.queue.waiting))}`}</span>}
                {(s.deadLetters?.count ?? 0) > 0 && (
                  <span class="detail" data-dead-letters>{` · ${labelled(t.deadLetters(), formatNumber(s.deadLetters!.count))}`}</span>
                )}
                {s.enabled && s.lastError && !(s.lastSuccess !== undefined && s.lastSuccess > s.lastError.at) && (
                  // the last error with its time, until the service has succeeded since
                  <span class="detail" data-code={s.lastError.code}>{` · ${errorMeaning(t, s.lastError)} · ${formatDateTime(s.lastError.at)}`}</span>
                )}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
