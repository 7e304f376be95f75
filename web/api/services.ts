// The calls of the /info page's services and factory reset blocks (spec §7 pew_system; docs/api.md
// `POST /config/pew_system`, `POST /config/factory_reset`). The page reads the services with the
// system information (`/rest/api/v1/services`, spec §7).

import { FACTORY_RESET_CONFIRM, type FactoryResetResult } from '../../device/model/factory-reset.ts';
import type { ServiceChanges } from '../../device/model/service-states.ts';
import type { SecurityWarning } from '../../device/model/warnings.ts';
import type { ServiceState } from '../../hw/types.ts';
import { post } from './client.ts';

export interface ServicesAnswer {
  services: ServiceState[];
  warnings: SecurityWarning[];
}

export const saveServices = (changes: ServiceChanges) => post<ServicesAnswer>('/config/pew_system', changes);
export const factoryReset = () =>
  post<{ ok: true; setupRequired: true; removed: FactoryResetResult }>('/config/factory_reset', { confirm: FACTORY_RESET_CONFIRM });
