// /smtp: the e-mail client (spec §2 service layout: general, specific, certificates, download area;
// save and reset are in the page bar), every field of pew_email (spec §3), the §5 rules through its
// schema (addresses in angle brackets, comma separated; port 0 = autodetect, shown as such) and the
// §5 "SMTP without SSL/TLS" hint. Fields that do not apply are hidden while they are valid: the SSL
// verification without SSL, the POP3/IMAP server with plain SMTP AUTH, the proxy's port without a
// proxy.
import { SMTP_ONLY, SMTP_REGISTERS } from '../../device/model/sections/email.ts';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { ServiceStatusBlock } from '../forms/service-status.tsx';
import { ServiceTest } from '../forms/service-test.tsx';
import { fieldOptions } from '../i18n/field-text.ts';
import { LL } from '../i18n/translate.ts';
import { section } from '../state/sections.ts';
import { earlyServicesStatus } from '../state/service-status.ts';
import { CertificateGroup, SecurityHint, shown, WIDE } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyServicesStatus();

const KEY = 'pew_email';

/** A port field whose 0 means "autodetect" (spec §5): the word stands beside the 0. */
function AutoPort({ path, value }: { path: string; value: unknown }) {
  const auto = value === 0 ? fieldOptions(KEY, path)['0'] : undefined;
  return <Field section={KEY} path={path} {...(auto ? { unit: auto } : {})} />;
}

export default function SmtpPage() {
  const t = LL.value.service;
  const e = section(KEY).temp.value;
  const login = e.emailmode !== SMTP_ONLY;
  return (
    <div class="service" data-page="smtp">
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} />
      <FieldGroup title={t.general()} id="smtp-general">
        <Field section={KEY} path="enable_email" />
        <Field section={KEY} path="plc_control_dt" />
        <RegisterFootprint start={e.plc_control_dt as number} length={SMTP_REGISTERS} />
        <Field section={KEY} path="plc_poll" unit="s" />
        <Field section={KEY} path="store_send" />
      </FieldGroup>
      <ServiceStatusBlock service="email" />
      <FieldGroup title={t.specific()} id="smtp-specific">
        <Field section={KEY} path="emailmode" />
        <Field section={KEY} path="server_smtp" />
        <AutoPort path="server_smtp_port" value={e.server_smtp_port} />
        {shown(KEY, 'server_pop3imap', login) && <Field section={KEY} path="server_pop3imap" />}
        {shown(KEY, 'server_port_pop3imap', login) && <AutoPort path="server_port_pop3imap" value={e.server_port_pop3imap} />}
        <Field section={KEY} path="transfermode_ssl" />
        {shown(KEY, 'transfermode_verify_ssl', e.transfermode_ssl === true) && <Field section={KEY} path="transfermode_verify_ssl" />}
        <Field section={KEY} path="server_user" />
        <Field section={KEY} path="server_password" />
        <Field section={KEY} path="sender" />
        <Field section={KEY} path="recipients" />
        <Field section={KEY} path="subject" />
        <Field section={KEY} path="proxy_ip" />
        {shown(KEY, 'proxy_port', e.proxy_ip !== '') && <Field section={KEY} path="proxy_port" />}
        <div style={WIDE}>
          <ServiceTest section="pew_email" />
        </div>
      </FieldGroup>
      <CertificateGroup section={KEY} id="smtp-certs" />
      <DownloadArea kinds={['email', 'library']} />
    </div>
  );
}
