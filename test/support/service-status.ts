// One service's entry of the one status answer (GET /config/service_status), checked against the
// schema the daemon and the console share, and the detail of the FTP send, the TLS bridge and the
// PLC clock sync (its `ftp`, `tls` and `rtc` parts), for the tests that look at them.
import * as v from 'valibot';
import { type ServiceStatus, type StatusService, servicesStatusSchema } from '../../device/model/service-status.ts';

interface Getter {
  get(path: string): Promise<{ status: number; body: unknown }>;
}

export async function serviceEntry(client: Getter, service: StatusService): Promise<ServiceStatus> {
  const r = await client.get('/config/service_status');
  if (r.status !== 200) throw new Error(`service_status answered ${r.status}`);
  const entry = v.parse(servicesStatusSchema, r.body).services.find((s) => s.service === service);
  if (!entry) throw new Error(`service_status has no entry ${service}`);
  return entry;
}

/** the `ftp`, `tls` or `rtc` detail of its entry */
export async function statusDetail<K extends 'ftp' | 'tls' | 'rtc'>(client: Getter, service: K): Promise<NonNullable<ServiceStatus[K]>> {
  const detail = (await serviceEntry(client, service))[service];
  if (!detail) throw new Error(`the ${service} entry carries no detail`);
  return detail as NonNullable<ServiceStatus[K]>;
}

/**
 * A status answer with one entry carrying `detail` as its `ftp`, `tls` or `rtc` part (the browser
 * tests answer the status call with it); the common fields are those of an idle service.
 */
export const answerWithDetail = (service: 'ftp' | 'tls' | 'rtc', detail: unknown) => ({
  services: [{ service, enabled: true, state: 'idle', since: 0, counters: {}, queue: { waiting: 0, dropped: 0, bound: 0 }, [service]: detail }],
});
