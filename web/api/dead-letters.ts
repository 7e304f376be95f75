// A queued service's dead letters (docs/services.md "Dead letters"; device/api/dead-letter-routes.ts):
// the download's address and the admin's retry and discard, the body checked with the daemon's schema.
import * as v from 'valibot';
import { type DeadLetterService, deadLetterActionSchema } from '../../device/model/dead-letters.ts';
import { mode, post } from './client.ts';
import { apiUrl } from './mode.ts';

export const deadLetterUrl = (service: DeadLetterService, format: 'csv' | 'json'): string =>
  apiUrl(mode.value, `/config/dead_letters/${service}?format=${format}`);

/** Puts every dead letter of `service` back into its queue; answers how many. */
export async function retryDeadLetters(service: DeadLetterService): Promise<number> {
  return (await post<{ retried: number }>('/config/dead_letters_retry', v.parse(deadLetterActionSchema, { service }))).retried;
}

/** Discards every dead letter of `service`; answers how many. */
export async function discardDeadLetters(service: DeadLetterService): Promise<number> {
  return (await post<{ discarded: number }>('/config/dead_letters_discard', v.parse(deadLetterActionSchema, { service }))).discarded;
}
