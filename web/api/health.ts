// The unit's health over the last hour for /health (docs/monitor.md "Health"): `GET /config/health`,
// checked against its schema before the page shows it, so a reply of another daemon version shows as
// unavailable instead of breaking the page.
import { type HealthAnswer, healthAnswerSchema } from '../../device/model/health.ts';
import { checked } from './checked.ts';
import { get } from './client.ts';

export const HEALTH_PATH = '/config/health';
export type { HealthAnswer };
export type HealthSample = HealthAnswer['samples'][number];

/** The last hour's samples; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchHealth(): Promise<HealthAnswer> {
  return checked(healthAnswerSchema, await get<unknown>(HEALTH_PATH));
}
