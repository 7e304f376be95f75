// /tls (spec §2 "/tls, /tlsclient, /tlsserver"; §3 "TLS (pew_tls)"): the overview of the TLS bridge.
// Both parts with their switch, where they listen and where they carry the connections, a link to
// each part's page, each part's live state (the `tls` entry of GET /config/service_status every update tick, spec §9),
// and the download area of the shared service layout (TLS example and library).
import { useEffect } from 'preact/hooks';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner } from '../forms/register.tsx';
import { LL, labelled } from '../i18n/translate.ts';
import { section } from '../state/sections.ts';
import { watchTlsStatus } from '../state/tls-status.ts';
import { TLS_KEY as KEY, PartStateLine } from './tls-parts.tsx';

function Part({ part, on, flow }: { part: 'client' | 'server'; on: string; flow: string }) {
  const t = LL.value.tls;
  const page = part === 'client' ? 'tlsclient' : 'tlsserver';
  return (
    <FieldGroup title={t[part]()} id={`tls-${part}`}>
      <Field section={KEY} path={on} />
      <p class="note" data-flow={part} data-on={String(section(KEY).temp.value[on] === true)}>
        {flow}
      </p>
      <PartStateLine part={part} />
      <p class="note">
        <a class="btn" href={`#/${page}`} data-link={page}>
          {labelled(t.settings(), LL.value.nav[page]())}
        </a>
      </p>
    </FieldGroup>
  );
}

export default function TlsPage() {
  useEffect(() => watchTlsStatus(), []);
  const t = LL.value.tls;
  const m = section(KEY).temp.value;
  const host = (h: unknown) => (typeof h === 'string' && h !== '' ? h : t.noHost());
  return (
    <div class="service" data-page="tls">
      <MultipleRegisterBanner />
      <Part
        part="client"
        on="enable_tlsclient"
        flow={t.clientFlow({ port: String(m.nontls_server_port), host: host(m.tls_server_host), dest: String(m.tls_destination_port) })}
      />
      <Part
        part="server"
        on="enable_tlsserver"
        flow={t.serverFlow({ port: String(m.tls_server_port), host: host(m.nontls_server_host), dest: String(m.nontls_destination_port) })}
      />
      <DownloadArea kinds={['tls', 'library']} />
    </div>
  );
}
