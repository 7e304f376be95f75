// The one status answer of the services driven by the PLC, the script, the FTP send, the TLS
// bridge and the PLC clock sync (`GET /config/service_status`, device/model/service-status.ts). The answer is checked against its
// schema before a page shows it, so a reply of another daemon version shows as "status unavailable".
import { type ServiceStatus, type ServicesStatus, servicesStatusSchema } from '../../device/model/service-status.ts';
import { checked } from './checked.ts';
import { get } from './client.ts';

export const SERVICE_STATUS_PATH = '/config/service_status';
export type { ServiceStatus, ServicesStatus };

/** Every service's status; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchServicesStatus(): Promise<ServicesStatus> {
  return checked(servicesStatusSchema, await get<unknown>(SERVICE_STATUS_PATH));
}
