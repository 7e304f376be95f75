// The unsaved switches of the services block on /info (spec §2, §4): kept beside the sections'
// temporary copies so that they outlive a visit to another page and count as unsaved changes like
// any page's settings (menu marker, Save all, the question when leaving /info, beforeunload).
import { computed, signal } from '@preact/signals';
import { type ServiceChanges, serviceDiff } from '../../device/model/service-states.ts';
import type { ServiceName } from '../../hw/types.ts';
import { anyChanged } from './sections.ts';
import { loadSystem, services, systemInfo } from './system.ts';

/** the wanted states of the services the administrator switched (before saving) */
export const serviceEdits = signal<ServiceChanges>({});
/** the switches that differ from the unit's current states */
export const pendingServices = computed(() => serviceDiff(services.value, serviceEdits.value));
export const servicesChanged = computed(() => pendingServices.value.length > 0);
/** anything unsaved in the console: a section's edits or a service switch */
export const anyUnsaved = computed(() => anyChanged.value || servicesChanged.value);

/** Switches a service in the edits; back at its current state it is no longer a change. */
export function switchService(name: ServiceName, on: boolean): void {
  const { [name]: _drop, ...rest } = serviceEdits.value;
  const now = services.value.find((s) => s.name === name)?.enabled;
  serviceEdits.value = on === now ? rest : { ...rest, [name]: on };
}

export function revertServices(): void {
  serviceEdits.value = {};
}

/** Saves the switched services (nothing when none differs); throws ApiFailure. Returns whether it saved. */
export async function saveServiceEdits(): Promise<boolean> {
  const pending = pendingServices.value;
  if (!pending.length) return false;
  // loaded on use: the calls' module brings the factory-reset schema, not wanted in the first load
  const { saveServices } = await import('../api/services.ts');
  const r = await saveServices(Object.fromEntries(pending));
  services.value = r.services;
  if (systemInfo.value) systemInfo.value = { ...systemInfo.value, services: r.services, warnings: r.warnings };
  serviceEdits.value = {};
  void loadSystem(); // the time card follows ntpd
  return true;
}
