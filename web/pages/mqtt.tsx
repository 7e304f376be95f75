// /mqtt: the shared service layout of spec §2 (general, specific, certificates, download area;
// save and reset are in the page bar), every field of pew_mqtt (spec §3). The template of the
// other service pages.

import { MQTT_REGISTERS } from '../../device/model/sections/mqtt.ts';
import { DownloadArea } from '../forms/downloads.tsx';
import { Field, FieldGroup } from '../forms/field.tsx';
import { MultipleRegisterBanner, RegisterFootprint } from '../forms/register.tsx';
import { ServiceStatusBlock } from '../forms/service-status.tsx';
import { ServiceTest } from '../forms/service-test.tsx';
import { LL } from '../i18n/translate.ts';
import { stepping, useSteps } from '../shell/in-steps.tsx';
import { section } from '../state/sections.ts';
import { earlyServicesStatus } from '../state/service-status.ts';
import { CertificateGroup, SecurityHint } from './service-parts.tsx';

// the first status answer, asked before each visit's first render (earlyInto in web/state/com-status.ts;
// made by the page's `ready`, web/router/routes.tsx)
export const early = (): Promise<void> => earlyServicesStatus();

const KEY = 'pew_mqtt';

export default function MqttPage() {
  const t = LL.value.service;
  const m = section(KEY).temp.value;
  // in steps (web/shell/in-steps.tsx): the general settings and the status, then the specific
  // settings and the Sparkplug B edge node's (docs/sparkplug.md), then the certificates and downloads
  const shown = useSteps(3);
  return (
    <div class="service" data-page="mqtt" {...stepping(shown, 3)}>
      <MultipleRegisterBanner />
      <SecurityHint section={KEY} />
      <FieldGroup title={t.general()} id="mqtt-general">
        <Field section={KEY} path="enable_mqtt" />
        <Field section={KEY} path="plc_control_dt" />
        <RegisterFootprint start={m.plc_control_dt as number} length={MQTT_REGISTERS} />
        <Field section={KEY} path="plc_poll" unit="s" />
      </FieldGroup>
      <ServiceStatusBlock service="mqtt" />
      {shown >= 2 && (
        <FieldGroup title={t.specific()} id="mqtt-specific">
          <Field section={KEY} path="broker_addr" />
          <Field section={KEY} path="broker_user" />
          <Field section={KEY} path="broker_password" />
          <Field section={KEY} path="keep_alive" unit="s" />
          <Field section={KEY} path="qos" />
          <Field section={KEY} path="retain" />
          <Field section={KEY} path="tls_version" />
          <Field section={KEY} path="insecure" />
          <ServiceTest section={KEY} />
        </FieldGroup>
      )}
      {shown >= 2 && (
        <FieldGroup title={t.sparkplug()} id="mqtt-sparkplug">
          <Field section={KEY} path="sparkplug_enable" />
          <Field section={KEY} path="sparkplug_group_id" />
          <Field section={KEY} path="sparkplug_edge_node_id" />
          <Field section={KEY} path="sparkplug_device_id" />
          <Field section={KEY} path="sparkplug_primary_host_id" />
          <Field section={KEY} path="sparkplug_poll" unit="s" />
        </FieldGroup>
      )}
      {shown >= 3 && (
        <>
          <CertificateGroup section={KEY} id="mqtt-certs" />
          <DownloadArea kinds={['mqtt', 'library']} />
        </>
      )}
    </div>
  );
}
