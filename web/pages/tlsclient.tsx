// /tlsclient (spec §2; §3 "TLS (pew_tls)" client part; §5 non-TLS port minimum 500, IP ranges;
// §9 control register 360 + 2): local clients connect in plain text to the listening port and the
// unit carries each connection over TLS to the TLS server; the part's live status block (GET
// /config/service_status, its `tls` entry, every update tick, spec §9). Save and reset are in the page bar.
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

export default function TlsClientPage() {
  useEffect(() => watchTlsStatus(), []);
  const t = LL.value.service;
  const m = section(KEY).temp.value;
  return (
    <div class="service" data-page="tlsclient">
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} codes={['open_tcp_port']} />
      <PartStatusBlock part="client" />
      <FieldGroup title={t.general()} id="tlsclient-general">
        <Field section={KEY} path="enable_tlsclient" />
        <Field section={KEY} path="plc_control_dt" />
        <RegisterFootprint start={m.plc_control_dt as number} length={TLS_REGISTERS} />
        <Field section={KEY} path="plc_poll" unit="s" />
      </FieldGroup>
      <FieldGroup title={t.specific()} id="tlsclient-specific">
        <Field section={KEY} path="nontls_server_port" />
        <AccessRange on="nontls_accessability" ip1="nontls_access_ip1" ip2="nontls_access_ip2" />
        <Field section={KEY} path="tls_server_host" />
        <Field section={KEY} path="tls_destination_port" />
        <MinVersion path="tls_min_version_client" />
        <Field section={KEY} path="ca_verification_tlsclient" />
        <Field section={KEY} path="tlsclient_certauth" />
      </FieldGroup>
      <FieldGroup title={t.certificates()} id="tlsclient-certs">
        <p class="hint note">
          {t.certNote({
            ext: certExtensions('ca', true)
              .map((e) => `.${e}`)
              .join(' '),
          })}
        </p>
        <Field section={KEY} path="tlsclientca" />
        <Field section={KEY} path="tlsclientcert" />
        <Field section={KEY} path="tlsclientkey" />
      </FieldGroup>
    </div>
  );
}
