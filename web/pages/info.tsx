// / and /info (spec §2): the unit at work (one line per link, thread, service and the logger, above
// the facts), OS, network, time/date, services, installed apps, versions with the compatibility
// warnings of §5, the security warnings of §5 that apply, and the system log, refreshed every 5000 ms (§9): the daemon log for every role, the audit entries for an administrator.
// The services are switched and the factory reset is run here (info-services.tsx): both concern the
// unit as a whole, which is what this page shows. That block is loaded after the page: /info is the
// console's first page and stays within its size budget (build/budget.ts).

import { useEffect } from 'preact/hooks';
import { auditLine } from '../api/audit.ts';
import { formatDateTime, formatNumber, LL, loadTexts } from '../i18n/translate.ts';
import { appNameText, auditActionText } from '../i18n/unit-values.ts';
import { pageOfSection } from '../pages.ts';
import { lazyModule } from '../shell/lazy-module.ts';
import { whenIdle } from '../state/console-data.ts';
import { loadSyslog, syslog, syslogAudit, systemFailed, systemInfo } from '../state/system.ts';
import { SyslogList } from './info-syslog.tsx';

export const SYSLOG_REFRESH_MS = 5000; // spec §9

// the blocks come with their texts: the services list, the unit at work (`serviceStatus` with the link,
// thread and logger states of `com`, `port` and `logger`) and the messages of a refused change
const servicesModule = lazyModule(
  () => Promise.all([import('./info-services.tsx'), loadTexts(['services', 'serviceStatus', 'com', 'port', 'logger', 'form', 'errors'])]).then(([m]) => m),
  'the services block',
);
const servicesBlock = servicesModule.loaded;

function Rows({ rows }: { rows: [string, preact.ComponentChildren][] }) {
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

const mib = (n: number) => `${formatNumber(Math.round(n / 1048576))}\u00a0MiB`;

export default function InfoPage() {
  // the services block follows the facts once the browser is idle: its code, texts and render do not
  // compete with the first render of the data, nor keep the page from answering input right after it
  const shown = systemInfo.value !== null;
  useEffect(() => {
    if (shown) whenIdle(servicesModule.load);
  }, [shown]);
  useEffect(() => {
    const tick = () =>
      void loadSyslog().catch(() => {
        /* shown as stale; the next tick retries */
      });
    tick();
    const id = setInterval(tick, SYSLOG_REFRESH_MS);
    return () => clearInterval(id);
  }, []);
  // the audit excerpt (administrators) names each action in the console's language: the users part of the dictionary
  const audited = syslogAudit.value.length > 0;
  useEffect(() => {
    if (audited) loadTexts(['users']).catch((e: unknown) => console.error('loading the audit texts failed', e));
  }, [audited]);
  const t = LL.value.info;
  const info = systemInfo.value;
  // a section key names the page it is set on; ports and service names stand as they are
  const subject = (s: string | number) => {
    const page = typeof s === 'string' ? pageOfSection(s) : undefined;
    return page ? LL.value.nav[page.id]() : String(s);
  };
  if (!info) {
    return (
      <div class="card" data-page="info" role="status">
        {systemFailed.value ? LL.value.shell.connectionFailed() : LL.value.shell.loading()}
      </div>
    );
  }
  const v = info.versions;
  return (
    <div class="info" data-page="info">
      {v.incompatible.length > 0 && (
        <div class="banner error" role="alert" data-banner="versions">
          {v.incompatible.map((k) => (
            <p key={k}>{t.incompatible({ part: t.versionNames[k](), min: v.minimum[k], have: v[k] })}</p>
          ))}
        </div>
      )}
      {info.warnings.length > 0 && (
        <section class="card group warn" aria-labelledby="info-warnings">
          <h2 id="info-warnings">{t.warnings()}</h2>
          <ul>
            {info.warnings.map((w) => (
              <li key={w.code} data-warning={w.code}>
                {t.warning[w.code]({ subjects: w.subjects.map(subject).join(', ') })}
              </li>
            ))}
          </ul>
        </section>
      )}
      {servicesBlock.value && <servicesBlock.value.ServiceRunCard />}
      <div class="cards">
        <section class="card" aria-labelledby="info-versions">
          <h2 id="info-versions">{t.versions()}</h2>
          <Rows rows={(['app', 'bsp', 'hmi'] as const).map((k) => [t.versionNames[k](), `${v[k]} (${t.minimum({ min: v.minimum[k] })})`])} />
        </section>
        <section class="card" aria-labelledby="info-os">
          <h2 id="info-os">{t.os()}</h2>
          <Rows
            rows={[
              [t.osName(), info.os.name],
              [t.osVersion(), info.os.version],
              [t.kernel(), info.os.kernel],
              [t.hostname(), info.os.hostname],
              [t.uptime(), t.uptimeValue({ h: Math.floor(info.os.uptimeSeconds / 3600), m: Math.floor((info.os.uptimeSeconds % 3600) / 60) })],
              [t.memory(), t.memoryValue({ free: mib(info.memory.freeBytes), total: mib(info.memory.totalBytes) })],
            ]}
          />
        </section>
        <section class="card" aria-labelledby="info-network">
          <h2 id="info-network">{t.network()}</h2>
          <Rows
            rows={[
              ...info.network.interfaces.map((i): [string, string] => [
                i.name,
                `${i.ipv4.join(', ')} · ${i.mac} · ${i.dhcp ? 'DHCP' : t.static()} · ${i.up ? t.up() : t.down()}`,
              ]),
              [t.gateway(), info.network.gateway],
              [t.dns(), info.network.dns.join(', ')],
            ]}
          />
        </section>
        <section class="card" aria-labelledby="info-time">
          <h2 id="info-time">{t.datetime()}</h2>
          <Rows
            rows={[
              [t.unitTime(), formatDateTime(info.datetime.iso)],
              [t.timezone(), info.datetime.timezone],
              [t.ntp(), info.datetime.ntp.enabled ? `${t.enabled()} · ${info.datetime.ntp.servers.join(', ')}` : t.disabled()],
            ]}
          />
        </section>
        <section class="card" aria-labelledby="info-apps">
          <h2 id="info-apps">{t.apps()}</h2>
          <Rows rows={info.apps.map((a): [string, string] => [appNameText(LL.value, a.name), a.version])} />
        </section>
      </div>
      {servicesBlock.value && <servicesBlock.value.ServicesCard />}
      {servicesBlock.value && <servicesBlock.value.ConsoleCertificateCard />}
      <section class="card" aria-labelledby="info-syslog">
        <h2 id="info-syslog">{t.syslog()}</h2>
        <p class="hint">{t.syslogNote({ s: SYSLOG_REFRESH_MS / 1000 })}</p>
        <SyslogList entries={syslog.value} />
        {syslogAudit.value.length > 0 && (
          <>
            <h3 id="info-audit">{LL.value.audit.title()}</h3>
            <pre class="syslog" role="region" tabIndex={0} data-syslog-audit aria-labelledby="info-audit">
              {syslogAudit.value.map((e) => auditLine(e, formatDateTime(e.time), auditActionText(LL.value, e.action))).join('\n')}
            </pre>
          </>
        )}
      </section>
      {servicesBlock.value && <servicesBlock.value.FactoryResetCard />}
    </div>
  );
}
