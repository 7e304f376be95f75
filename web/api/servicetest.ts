// The connection tests of the service pages (device/model/servicetest.ts): one call each, the
// answer checked against the schema before the page shows it.
import * as v from 'valibot';
import { ApiFailure, post } from './client.ts';
import { serviceTestResultSchema, type ServiceTestResult } from '../../device/model/servicetest.ts';

/** where each page's test runs */
export const SERVICE_TEST_PATHS = {
  pew_sql: '/config/get_sqltest',
  pew_nosql: '/config/get_nosqltest',
  pew_api: '/apitest',
  pew_mqtt: '/config/servicetest/pew_mqtt',
  pew_ftpc: '/config/servicetest/pew_ftpc',
  pew_httpc: '/config/servicetest/pew_httpc',
  pew_email: '/config/servicetest/pew_email',
} as const;
export type TestedSection = keyof typeof SERVICE_TEST_PATHS;

/**
 * Runs the test of a section on its saved settings. A peer that fails is an answer (`ok: false`);
 * the daemon refusing to run the test throws ApiFailure.
 */
export async function runServiceTest(section: TestedSection, body: Record<string, unknown> = {}): Promise<ServiceTestResult> {
  const parsed = v.safeParse(serviceTestResultSchema, await post<unknown>(SERVICE_TEST_PATHS[section], body));
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}
