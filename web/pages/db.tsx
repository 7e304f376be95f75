// /db: the NoSQL client, MongoDB (0) or InfluxDB (1) (spec §2 shared service layout; §3 "NoSQL
// (pew_nosql)": the SQL fields with collection and measurement instead of the table, no port; §5
// tag name and value together; §9 control register 370 + 10), its data points, the InfluxDB
// listing and the connection test.
import { INFLUX, NOSQL_REGISTERS } from '../../device/model/sections/nosql.ts';
import { DataList } from '../forms/datalist.tsx';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { ServiceStatusBlock } from '../forms/service-status.tsx';
import { ServiceTest } from '../forms/service-test.tsx';
import { errorText, LL } from '../i18n/translate.ts';
import { section } from '../state/sections.ts';
import { earlyServicesStatus } from '../state/service-status.ts';
import { InfluxReader } from './db-influx.tsx';
import { CertificateGroup, SecurityHint, shown, WIDE } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyServicesStatus();

const KEY = 'pew_nosql';

export default function DbPage() {
  const t = LL.value.service;
  const m = section(KEY).temp.value;
  const influx = m.db_type === INFLUX;
  return (
    <div class="service" data-page="db">
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} />
      <FieldGroup title={t.general()} id="db-general">
        <Field section={KEY} path="enable_sql" />
        <Field section={KEY} path="plc_control_dt" />
        <RegisterFootprint start={m.plc_control_dt as number} length={NOSQL_REGISTERS} />
        <Field section={KEY} path="plc_poll" unit="s" />
      </FieldGroup>
      <ServiceStatusBlock service="nosql" />
      <FieldGroup title={t.specific()} id="db-specific">
        <Field section={KEY} path="db_type" />
        <Field section={KEY} path="server" />
        <Field section={KEY} path="instance_name" />
        {/* the other type's target keeps its value, unused; shown while it is wrong so it can be fixed */}
        {shown(KEY, 'collection', !influx) && <Field section={KEY} path="collection" />}
        {shown(KEY, 'measurement', influx) && <Field section={KEY} path="measurement" />}
        <Field section={KEY} path="tag_name" />
        <Field section={KEY} path="tag_value" />
        {(m.tag_name === '') !== (m.tag_value === '') && (
          <p class="hint warn" data-note="tag-ignored">
            {errorText('tag_pair')}
          </p>
        )}
        <Field section={KEY} path="user" />
        <Field section={KEY} path="pass" />
        <Field section={KEY} path="timeout" unit="s" />
        <Field section={KEY} path="use_encryption" />
        <Field section={KEY} path="ca_verification" />
        {influx && (
          <div style={WIDE}>
            <InfluxReader />
          </div>
        )}
        <div style={WIDE}>
          <ServiceTest section={KEY} />
        </div>
      </FieldGroup>
      <DataList k={KEY} />
      <CertificateGroup section={KEY} id="db-certs" />
      <DownloadArea kinds={['mongo', 'influx', 'library']} />
    </div>
  );
}
