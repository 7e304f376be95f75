// The console's own HTTPS certificate on /info (security.md TLS-2): where it comes from, its SHA-256
// fingerprint (what a technician compares with the browser's certificate viewer before trusting
// it), names and validity; an administrator replaces it by uploading a certificate and its key
// (certificate folder `console`), and removing them brings the generated one back. Above it, the
// console's own listeners (its HTTP or HTTPS port, and the HTTP port that redirects to HTTPS) with
// the connections each ended because of a contained fault (issue 15; device/api/listen.ts).

import { useEffect } from 'preact/hooks';
import { Certificates } from '../forms/certificates.tsx';
import { LL, loadTexts } from '../i18n/translate.ts';
import { type ConsoleListenerInfo, loadSystem, systemInfo } from '../state/system.ts';

/** the daemon looks at the uploaded files every 2 s (CONSOLE_CERT_CHECK_MS of device/system/console-tls.ts) */
const TAKEN_UP_MS = 3000;
const reloadLater = () => setTimeout(() => void loadSystem(), TAKEN_UP_MS);

function Listeners({ list }: { list: ConsoleListenerInfo[] }) {
  const t = LL.value.certs;
  if (!list.length || !t?.listeners) return null;
  const name = (l: ConsoleListenerInfo) =>
    l.role === 'redirect' ? t.listenerRedirect({ port: l.port }) : l.tls ? t.listenerHttps({ port: l.port }) : t.listenerHttp({ port: l.port });
  return (
    <dl class="facts" aria-label={t.listeners()} data-console-listeners>
      {list.map((l) => (
        <div key={l.port}>
          <dt>{name(l)}</dt>
          <dd data-faults={l.faults}>{t.listenerFaults({ count: l.faults })}</dd>
        </div>
      ))}
    </dl>
  );
}

export function ConsoleCertificateCard() {
  // the certificate texts are a part of the dictionary of their own; /info loads it only for this card
  useEffect(() => void loadTexts(['certs']).catch((e: unknown) => console.error('loading the certificate texts failed', e)), []);
  const tls = systemInfo.value?.consoleTls;
  if (!tls) return null;
  const t = LL.value.services.consoleCert;
  const c = tls.enabled ? tls.certificate : undefined;
  return (
    <section class="card" aria-labelledby="info-console-cert" data-console-cert={c ? c.source : 'off'}>
      <h2 id="info-console-cert">{t.title()}</h2>
      <Listeners list={systemInfo.value?.consoleListeners ?? []} />
      {!c ? (
        <p class="hint">{t.off()}</p>
      ) : (
        <>
          <dl class="facts">
            <div>
              <dt>{t.source()}</dt>
              <dd>{c.source === 'uploaded' ? t.uploaded() : t.generated()}</dd>
            </div>
            <div>
              <dt>{t.fingerprint()}</dt>
              <dd>
                <code data-fingerprint>{c.fingerprint256}</code>
              </dd>
            </div>
            <div>
              <dt>{t.names()}</dt>
              <dd>{c.subjectAltName}</dd>
            </div>
            <div>
              <dt>{t.valid()}</dt>
              <dd>{`${c.validFrom} – ${c.validTo}`}</dd>
            </div>
          </dl>
          {c.uploadProblem && (
            <p class="banner warning" role="alert">
              {t.refused({ reason: c.uploadProblem })}
            </p>
          )}
          <p class="hint">{t.note()}</p>
          <Certificates section="console" kinds={['server', 'key']} tls={false} onChange={reloadLater} />
        </>
      )}
    </section>
  );
}
