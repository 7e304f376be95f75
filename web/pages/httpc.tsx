// /httpc: the HTTP client (spec §2 service layout: general, specific, certificates, download area;
// save and reset are in the page bar), every field of pew_httpc (spec §3), the §5 rules through its
// schema (the URL's scheme must match "SSL") and the §5 "no encryption" hint. Fields that do not
// apply are hidden while they are valid: the SSL verification without SSL, the proxy's port and
// login without a proxy. The content type of a body and the custom headers (httpc-headers.tsx) come
// before the connection test, which sends them too.
import { HTTP_REGISTERS } from '../../device/model/sections/httpc.ts';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { ServiceStatusBlock } from '../forms/service-status.tsx';
import { ServiceTest } from '../forms/service-test.tsx';
import { LL } from '../i18n/translate.ts';
import { section } from '../state/sections.ts';
import { earlyServicesStatus } from '../state/service-status.ts';
import { HttpHeaders } from './httpc-headers.tsx';
import { CertificateGroup, SecurityHint, shown, WIDE } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyServicesStatus();

const KEY = 'pew_httpc';

export default function HttpcPage() {
  const t = LL.value.service;
  const h = section(KEY).temp.value;
  const proxy = h.proxy_addr !== '';
  return (
    <div class="service" data-page="httpc">
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} />
      <FieldGroup title={t.general()} id="httpc-general">
        <Field section={KEY} path="enable_httpc" />
        <Field section={KEY} path="plc_control_dt" />
        <RegisterFootprint start={h.plc_control_dt as number} length={HTTP_REGISTERS} />
        <Field section={KEY} path="plc_poll" unit="s" />
      </FieldGroup>
      <ServiceStatusBlock service="httpc" />
      <FieldGroup title={t.specific()} id="httpc-specific">
        <Field section={KEY} path="server_addr" />
        <Field section={KEY} path="transfermode_ssl" />
        {shown(KEY, 'transfermode_verify_ssl', h.transfermode_ssl === true) && <Field section={KEY} path="transfermode_verify_ssl" />}
        <Field section={KEY} path="server_user" />
        <Field section={KEY} path="server_password" />
        <Field section={KEY} path="proxy_addr" />
        {shown(KEY, 'proxy_port', proxy) && <Field section={KEY} path="proxy_port" />}
        {shown(KEY, 'proxy_user', proxy) && <Field section={KEY} path="proxy_user" />}
        {shown(KEY, 'proxy_password', proxy) && <Field section={KEY} path="proxy_password" />}
        <Field section={KEY} path="content_type" />
        <HttpHeaders />
        <div style={WIDE}>
          <ServiceTest section="pew_httpc" />
        </div>
      </FieldGroup>
      <CertificateGroup section={KEY} id="httpc-certs" />
      <DownloadArea kinds={['httpc', 'library']} />
    </div>
  );
}
