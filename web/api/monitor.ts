// The calls of the traffic monitor page (docs/monitor.md): a read of the capture after a cursor,
// start and stop of the unit's one capture, and the address of a download. Every answer is checked
// against the schemas the daemon answers with (device/model/monitor.ts).
import { type CaptureStateView, captureStateSchema, type MonitorAnswer, type MonitorStartRequest, monitorAnswerSchema } from '../../device/model/monitor.ts';
import { checked } from './checked.ts';
import { get, post } from './client.ts';

export const MONITOR_PATH = '/config/monitor';

/** The records after the query's `after` that pass its filters, with the capture's state and the sources. */
export async function fetchMonitor(query: string): Promise<MonitorAnswer> {
  return checked(monitorAnswerSchema, await get<unknown>(`${MONITOR_PATH}?${query}`));
}

/** Starts the unit's capture (replacing one that runs); its state. */
export async function startCapture(req: MonitorStartRequest): Promise<CaptureStateView> {
  return checked(captureStateSchema, await post<unknown>(`${MONITOR_PATH}/start`, req));
}

export async function stopCapture(): Promise<CaptureStateView> {
  return checked(captureStateSchema, await post<unknown>(`${MONITOR_PATH}/stop`, {}));
}

/** The path of a download: the records after `after` (of one source) as text or pcap. */
export const downloadPath = (format: 'text' | 'pcap', after: number, source: string): string =>
  `${MONITOR_PATH}/download?format=${format}&after=${after}${source ? `&source=${encodeURIComponent(source)}` : ''}`;
