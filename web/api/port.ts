// The two calls of the ports page besides its section (spec §2 /port "connection test"; §9 update
// tick): the live counters of every redirection thread and the connection test of one thread. The
// schemas live in device/model/porttest.ts; every answer is checked against them, so a reply of
// another daemon version shows as "status unavailable" instead of breaking the page.
import { checked } from './checked.ts';
import { get, post } from './client.ts';

export {
  PORT_TEST_FAILURES,
  type PortStatus,
  type PortTestFailure,
  type PortTestRequest,
  type PortTestResult,
  type PortThreadStatus,
  portStatusSchema,
  portTestRequest,
  portTestResultSchema,
  portThreadStatusSchema,
} from '../../device/model/porttest.ts';

import { type PortStatus, type PortTestRequest, type PortTestResult, portStatusSchema, portTestResultSchema } from '../../device/model/porttest.ts';

// ---- calls (console) ----

export const PORT_STATUS_PATH = '/config/port_status';
export const PORT_TEST_PATH = '/config/porttest';
export const THREAD_COUNTER_RESET_PATH = '/config/port_status/reset';

/** The state of every thread; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchPortStatus(): Promise<PortStatus> {
  return checked(portStatusSchema, await get<unknown>(PORT_STATUS_PATH));
}

/** Starts the counters of every thread again from 0 (administrator); the status after it. */
export async function resetThreadCounters(): Promise<PortStatus> {
  return checked(portStatusSchema, await post<unknown>(THREAD_COUNTER_RESET_PATH, {}));
}

/**
 * Runs the connection test of one saved thread. A test that fails is an answer (`ok: false`); the
 * daemon refusing to test (409 `interface_not_ready`: no such saved thread) throws.
 */
export async function runPortTest(index: number): Promise<PortTestResult> {
  const body: PortTestRequest = { index };
  return checked(portTestResultSchema, await post<unknown>(PORT_TEST_PATH, body));
}
