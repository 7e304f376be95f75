// /rest: the REST API and HTTP server of the unit (spec §2 service layout: general, specific,
// certificates, download area; save and reset are in the page bar), every field of pew_api (spec
// §3) with its §5 rules through the schema (port range and unallowed ports, the ip1..ip2 range),
// the §5 "no encryption" hint, the API key, keyless writes and writable PLC areas of security.md
// REST-1/REST-2 (with the warning when writes need no key), the host names of HOST-1, the state of
// the REST port, the REST test (`/apitest`) and the uploaded HTTP files with delete.
import { useEffect, useState } from 'preact/hooks';
import { fetchRestStatus, type RestStatus } from '../api/webfiles.ts';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup } from '../forms/field.tsx';
import { ServiceTest } from '../forms/service-test.tsx';
import { LL } from '../i18n/translate.ts';
import { RestFiles } from './rest-files.tsx';
import { SecurityHint, WIDE } from './service-parts.tsx';

const KEY = 'pew_api';
/** spec §9: update tick 1500 ms */
export const REST_STATUS_TICK_MS = 1500;

/** What the saved settings run as: listening on its port (HTTP or HTTPS), off, or why it cannot listen. */
function PortState() {
  const t = LL.value.rest;
  const [status, setStatus] = useState<RestStatus | null>(null);
  useEffect(() => {
    let live = true;
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        const s = await fetchRestStatus();
        if (live) setStatus(s);
      } catch {
        if (live) setStatus(null);
      } finally {
        busy = false;
      }
    };
    void tick();
    const timer = setInterval(() => void tick(), REST_STATUS_TICK_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  if (!status) return null;
  const text = !status.enabled
    ? t.stateOff()
    : status.listening
      ? t.stateListening({ port: status.port, scheme: status.tls ? 'HTTPS' : 'HTTP' })
      : status.detail === 'certificate_missing'
        ? t.stateNoCert()
        : t.stateFailed({ port: status.port, detail: status.detail });
  return (
    <>
      <p
        class={status.enabled && !status.listening ? 'banner warning' : 'hint'}
        data-rest-state={status.listening ? 'listening' : status.enabled ? 'failed' : 'off'}
        style={WIDE}
      >
        {text}
      </p>
      {status.faults > 0 && (
        <p class="hint" data-rest-faults style={WIDE}>
          {t.faults({ count: status.faults })}
        </p>
      )}
    </>
  );
}

export default function RestPage() {
  const t = LL.value.service;
  return (
    <div class="service" data-page="rest">
      <SecurityHint section={KEY} codes={['open_tcp_port', 'no_encryption', 'api_without_key']} />
      <FieldGroup title={t.general()} id="rest-general">
        <Field section={KEY} path="api_enable" />
        <Field section={KEY} path="http_server" />
        <Field section={KEY} path="http_port" />
        <PortState />
      </FieldGroup>
      <FieldGroup title={t.specific()} id="rest-specific">
        <Field section={KEY} path="ip1" />
        <Field section={KEY} path="ip2" />
        <Field section={KEY} path="use_encryption" />
        <Field section={KEY} path="use_cors" />
        <Field section={KEY} path="api_key" />
        <Field section={KEY} path="keyless_writes" />
        <Field section={KEY} path="write_areas" />
        <Field section={KEY} path="host_names" />
        <div style={WIDE}>
          <ServiceTest section="pew_api" />
        </div>
      </FieldGroup>
      <FieldGroup title={t.certificates()} id="rest-certs">
        <p class="hint" style={WIDE} data-rest-certs>
          {LL.value.rest.certNote()}
        </p>
      </FieldGroup>
      <RestFiles />
      <DownloadArea kinds={['rest', 'library']} />
    </div>
  );
}
