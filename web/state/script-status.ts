// The live state of the script while /script is open: its entry of the one status answer, asked
// for every update tick (spec §9: 1500 ms), one request at a time, stopped when the page goes.
import { signal } from '@preact/signals';
import { fetchServicesStatus, type ServiceStatus } from '../api/service-status.ts';
import { COM_STATUS_TICK_MS, watchInto } from './com-status.ts';

/** the script's entry of the last answer; null before the first one and after a failed call */
export const scriptStatus = signal<ServiceStatus | null>(null);
export const scriptStatusFailed = signal(false);

async function loadScriptStatus(): Promise<ServiceStatus> {
  const entry = (await fetchServicesStatus()).services.find((s) => s.service === 'script');
  if (!entry) throw new Error('the daemon reports no script');
  return entry;
}

/** Starts the status updates of the script page; the returned stop ends them. */
export function watchScriptStatus(tickMs = COM_STATUS_TICK_MS, load: () => Promise<ServiceStatus> = loadScriptStatus): () => void {
  return watchInto(scriptStatus, scriptStatusFailed, load, tickMs);
}
