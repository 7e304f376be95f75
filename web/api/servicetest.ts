// The connection tests of the service pages (device/model/servicetest.ts): one call each, the
// answer checked against the schema before the page shows it. The tests of the MQTT, FTP, HTTP
// client and e-mail pages answer as they run: their steps come one by one (`onProgress`).
import * as v from 'valibot';
import { type ServiceTestResult, serviceTestResultSchema, type TestStep, testProgressLineSchema } from '../../device/model/servicetest.ts';
import { checked } from './checked.ts';
import { ApiFailure, post, postLines } from './client.ts';

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

/** the tests answered line by line as they run (POST /config/servicetest/<section>) */
const LIVE: readonly TestedSection[] = ['pew_mqtt', 'pew_ftpc', 'pew_httpc', 'pew_email'];

/** A running test so far: the steps ended, and the one under way. */
export interface TestProgress {
  steps: ServiceTestResult['steps'];
  running?: TestStep;
}

/**
 * Runs the test of a section on its saved settings. A peer that fails is an answer (`ok: false`);
 * the daemon refusing to run the test throws ApiFailure.
 */
export async function runServiceTest(
  section: TestedSection,
  body: Record<string, unknown> = {},
  onProgress: (p: TestProgress) => void = () => {},
): Promise<ServiceTestResult> {
  if (!LIVE.includes(section)) {
    return checked(serviceTestResultSchema, await post<unknown>(SERVICE_TEST_PATHS[section], body));
  }
  let progress: TestProgress = { steps: [] };
  let result: ServiceTestResult | undefined;
  await postLines(SERVICE_TEST_PATHS[section], body, (raw) => {
    const whole = v.safeParse(serviceTestResultSchema, raw); // a daemon answering the one JSON result
    if (whole.success) {
      result = whole.output;
      return;
    }
    const l = checked(testProgressLineSchema, raw);
    if ('result' in l) result = l.result;
    else if ('error' in l) throw new ApiFailure(200, 'internal');
    else {
      progress = 'running' in l ? { ...progress, running: l.running } : { steps: [...progress.steps, l.step] };
      onProgress(progress);
    }
  });
  if (!result) throw new ApiFailure(0, 'connection_failed'); // the answer ended before its result
  return result;
}
