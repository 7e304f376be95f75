// /tlsserver (spec §2; §3 "TLS (pew_tls)" server part; §5 ports, IP ranges; §9 status register
// 362 + 2): TLS clients connect to the TLS listening port and the unit carries each connection in
// plain text to the destination host; the part's live status block (the `tls` entry of GET
// /config/service_status every update tick, spec §9). Save and reset are in the page bar.
import { useEffect } from 'preact/hooks';
import { certExtensions } from '../../device/model/common.ts';
import { TLS_REGISTERS } from '../../device/model/sections/tls.ts';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { LL } from '../i18n/translate.ts';
import { section } from '../state/sections.ts';
import { watchTlsStatus } from '../state/tls-status.ts';
import { SecurityHint } from './service-parts.tsx';
import { AccessRange, TLS_KEY as KEY, MinVersion, PartStatusBlock } from './tls-parts.tsx';

export default function TlsServerPage() {
  useEffect(() => watchTlsStatus(), []);
  const t = LL.value.service;
  const m = section(KEY).temp.value;
  return (
    <div class="service" data-page="tlsserver">
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} codes={['open_tcp_port']} />
      <PartStatusBlock part="server" />
      <FieldGroup title={t.general()} id="tlsserver-general">
        <Field section={KEY} path="enable_tlsserver" />
        <Field section={KEY} path="plc_status_dt" />
        <RegisterFootprint start={m.plc_status_dt as number} length={TLS_REGISTERS} />
        <Field section={KEY} path="plc_poll_tlsserver" unit="s" />
      </FieldGroup>
      <FieldGroup title={t.specific()} id="tlsserver-specific">
        <Field section={KEY} path="tls_server_port" />
        <AccessRange on="tls_accessability" ip1="tls_access_ip1" ip2="tls_access_ip2" />
        <Field section={KEY} path="nontls_server_host" />
        <Field section={KEY} path="nontls_destination_port" />
        <MinVersion path="tls_min_version_server" />
        <Field section={KEY} path="tlsserver_certauth" />
      </FieldGroup>
      <FieldGroup title={t.certificates()} id="tlsserver-certs">
        <p class="hint note">
          {t.certNote({
            ext: certExtensions('server', true)
              .map((e) => `.${e}`)
              .join(' '),
          })}
        </p>
        <Field section={KEY} path="tlsservercert" />
        <Field section={KEY} path="tlsserverkey" />
        <Field section={KEY} path="tlsserverca" />
      </FieldGroup>
    </div>
  );
}
