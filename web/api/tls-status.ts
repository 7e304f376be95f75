// The live state of the TLS bridge for /tls, /tlsclient and /tlsserver (spec §2, §3 pew_tls):
// `GET /config/tls_status`. The answer is checked against its schema before a page shows it, so a
// reply of another daemon version shows as "status unavailable" instead of breaking the page.
import * as v from 'valibot';
import { ApiFailure, get } from './client.ts';
import { tlsStatusSchema, type TlsPartStatus, type TlsStatus } from '../../device/model/tls-status.ts';

export const TLS_STATUS_PATH = '/config/tls_status';
export type { TlsPartStatus, TlsStatus };

/** The bridge's status; throws ApiFailure when the call fails or the answer is not understood. */
export async function fetchTlsStatus(): Promise<TlsStatus> {
  const parsed = v.safeParse(tlsStatusSchema, await get<unknown>(TLS_STATUS_PATH));
  if (!parsed.success) throw new ApiFailure(200, 'internal');
  return parsed.output;
}
