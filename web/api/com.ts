// The two calls of the COM page besides its section (spec §5 PLC test, §9 update tick): the live
// state of every PLC link and the PLC test of one interface. Both answers are checked against a
// schema before the page shows them, so a reply of another daemon version shows as "unavailable"
// instead of breaking the page.
import type * as v from 'valibot';
import { comStatusSchema, type LinkStatusView, type PlcTestResult, plcTestResultSchema } from '../../device/model/plctest.ts';
import { checked } from './checked.ts';
import { get, post } from './client.ts';

export const COM_STATUS_PATH = '/config/com_status';
export const PLC_TEST_PATH = '/config/plctest';
export const COUNTER_RESET_PATH = '/config/com_status/reset';

export type LinkStatus = LinkStatusView;
export type LinkState = LinkStatus['state'];
export type ComStatus = v.InferOutput<typeof comStatusSchema>;
export type { PlcTestResult };
export type PlcTestSuccess = Extract<PlcTestResult, { ok: true }>;
export type PlcTestFailure = Extract<PlcTestResult, { ok: false }>;
export type PlcFailureReason = PlcTestFailure['reason'];

/** The state of every link; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchComStatus(): Promise<ComStatus> {
  return checked(comStatusSchema, await get<unknown>(COM_STATUS_PATH));
}

/** Starts the counters of every running link again from 0 (administrator); the status after it. */
export async function resetLinkCounters(): Promise<ComStatus> {
  return checked(comStatusSchema, await post<unknown>(COUNTER_RESET_PATH, {}));
}

/**
 * Runs the PLC test of one interface on its saved settings. A PLC that fails the test is an answer
 * (`ok: false`); the daemon refusing to test (409 `interface_not_ready`, `tcp_port_closed`) throws.
 */
export async function runPlcTest(id: number): Promise<PlcTestResult> {
  return checked(plcTestResultSchema, await post<unknown>(PLC_TEST_PATH, { id }));
}
