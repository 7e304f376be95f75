// /sql: the SQL client (spec §2 shared service layout: general, specific, certificates, download
// area; save and reset are in the page bar), every field of pew_sql (spec §3) with its data points,
// the control register footprint (spec §9: SQL 350 + 6) and the connection test.
import { batch } from '@preact/signals';
import { SQL_DEFAULT_PORTS, SQL_REGISTERS } from '../../device/model/sections/sql.ts';
import { DataList } from '../forms/datalist.tsx';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup, FieldView, problemAt } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { ServiceStatusBlock } from '../forms/service-status.tsx';
import { ServiceTest } from '../forms/service-test.tsx';
import { LL } from '../i18n/translate.ts';
import { section, setField } from '../state/sections.ts';
import { earlyServicesStatus } from '../state/service-status.ts';
import { CertificateGroup, SecurityHint, WIDE } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyServicesStatus();

const KEY = 'pew_sql';
type SqlType = keyof typeof SQL_DEFAULT_PORTS;

/** The database type; the port follows it while it is the usual port of the type before. */
function DbTypeField() {
  const m = section(KEY).temp.value;
  const change = (next: unknown) =>
    batch(() => {
      const before = SQL_DEFAULT_PORTS[m.db_type as SqlType];
      setField(KEY, 'db_type', next);
      const port = SQL_DEFAULT_PORTS[next as SqlType];
      if (port !== undefined && (m.port === before || m.port === '')) setField(KEY, 'port', port);
    });
  return <FieldView section={KEY} path="db_type" value={m.db_type} problem={problemAt(KEY, 'db_type')} onChange={change} />;
}

export default function SqlPage() {
  const t = LL.value.service;
  const m = section(KEY).temp.value;
  return (
    <div class="service" data-page="sql">
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} />
      <FieldGroup title={t.general()} id="sql-general">
        <Field section={KEY} path="enable_sql" />
        <Field section={KEY} path="plc_control_dt" />
        <RegisterFootprint start={m.plc_control_dt as number} length={SQL_REGISTERS} />
        <Field section={KEY} path="plc_poll" unit="s" />
      </FieldGroup>
      <ServiceStatusBlock service="sql" />
      <FieldGroup title={t.specific()} id="sql-specific">
        <DbTypeField />
        <Field section={KEY} path="server" />
        <Field section={KEY} path="port" />
        <Field section={KEY} path="instance_name" />
        <Field section={KEY} path="tablename" />
        <Field section={KEY} path="user" />
        <Field section={KEY} path="pass" />
        <Field section={KEY} path="timeout" unit="s" />
        <Field section={KEY} path="use_encryption" />
        <Field section={KEY} path="ca_verification" />
        <div style={WIDE}>
          <ServiceTest section={KEY} />
        </div>
      </FieldGroup>
      <DataList k={KEY} />
      <CertificateGroup section={KEY} id="sql-certs" />
      <DownloadArea kinds={['sql', 'library']} />
    </div>
  );
}
