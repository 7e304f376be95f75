// /ftp: the FTP client (spec §2 service layout: general, specific, certificates, download area;
// save and reset are in the page bar), every field of pew_ftpc (spec §3), the §5 rules through its
// schema and the §5 "no encryption" hint. Fields that do not apply are hidden while they are valid:
// the SSL verification without FTPS/SSL, the active-mode address in passive mode, the proxy's port
// and login mode without a proxy. Above them the live status of the send (ftp-status.tsx); under the
// general settings the service's entry of the one status answer with its counters, as on every service page.
import { useEffect } from 'preact/hooks';
import { FTP_REGISTERS } from '../../device/model/sections/ftpc.ts';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { ServiceStatusBlock } from '../forms/service-status.tsx';
import { ServiceTest } from '../forms/service-test.tsx';
import { LL } from '../i18n/translate.ts';
import { watchFtpStatus } from '../state/ftp-status.ts';
import { section } from '../state/sections.ts';
import { earlyServicesStatus } from '../state/service-status.ts';
import { FtpStatusBlock } from './ftp-status.tsx';
import { CertificateGroup, SecurityHint, shown, WIDE } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyServicesStatus();

const KEY = 'pew_ftpc';

export default function FtpPage() {
  useEffect(() => watchFtpStatus(), []);
  const t = LL.value.service;
  const f = section(KEY).temp.value;
  const tls = f.transfermode_ftps === true || f.transfermode_ssl === true;
  const proxy = f.proxy_ip !== '';
  return (
    <div class="service" data-page="ftp">
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} />
      <FtpStatusBlock />
      <FieldGroup title={t.general()} id="ftp-general">
        <Field section={KEY} path="enable_ftp" />
        <Field section={KEY} path="plc_control_dt" />
        <RegisterFootprint start={f.plc_control_dt as number} length={FTP_REGISTERS} />
        <Field section={KEY} path="plc_poll" unit="s" />
        <Field section={KEY} path="store_send" />
      </FieldGroup>
      <ServiceStatusBlock service="ftp" block="ftp-service-status" />
      <FieldGroup title={t.specific()} id="ftp-specific">
        <Field section={KEY} path="server_ip" />
        <Field section={KEY} path="server_port" />
        <Field section={KEY} path="server_user" />
        <Field section={KEY} path="server_password" />
        <Field section={KEY} path="transfermode_passive" />
        {shown(KEY, 'local_ip', f.transfermode_passive !== true) && <Field section={KEY} path="local_ip" />}
        <Field section={KEY} path="transfermode_ascii" />
        <Field section={KEY} path="transfermode_ftps" />
        <Field section={KEY} path="transfermode_ssl" />
        {shown(KEY, 'transfermode_verify_ssl', tls) && <Field section={KEY} path="transfermode_verify_ssl" />}
        <Field section={KEY} path="server_dir" />
        <Field section={KEY} path="local_dir" />
        <Field section={KEY} path="local_file" />
        <Field section={KEY} path="proxy_ip" />
        {shown(KEY, 'proxy_port', proxy) && <Field section={KEY} path="proxy_port" />}
        {shown(KEY, 'proxy_mode_ascii', proxy) && <Field section={KEY} path="proxy_mode_ascii" />}
        <div style={WIDE}>
          <ServiceTest section="pew_ftpc" />
        </div>
      </FieldGroup>
      <CertificateGroup section={KEY} id="ftp-certs" />
      <DownloadArea kinds={['ftp', 'library']} />
    </div>
  );
}
