// The one place that says what a failed job's error means for the job (docs/services.md "Dead
// letters"): a transient error (the peer down, a timeout, a refused connection, a login the peer
// refuses) is the service's, not the job's, so the job keeps its place and waits, as every job
// behind it; a permanent error (the table does not fit the row, a value or size the peer refuses)
// would come again on every try, so after MAX_TRIES the job goes to the dead letters and the queue
// goes on. A job the peer refused outright (a job end with an error the peer gave without an answer
// to keep) is a dead letter at once.
import type { ServiceErrorName } from '../model/blocks/convention.ts';
import type { RuntimeService } from '../model/service-status.ts';

/** tries of a job that fails with a permanent error before it is a dead letter */
export const MAX_TRIES = 3;

type QueuedService = Exclude<RuntimeService, 'script'>;

/** per engine: the errors of a job not delivered that would come again on every try */
const PERMANENT: Record<QueuedService, readonly ServiceErrorName[]> = {
  // a table (measurement, collection) with other columns or field types; a value or row the database cannot hold
  sql: ['table_mismatch', 'bad_value', 'too_large'],
  nosql: ['table_mismatch', 'bad_value', 'too_large'],
  // a request body, mail or payload larger than the peer takes
  httpc: ['too_large'],
  email: ['too_large'],
  mqtt: ['too_large'],
};

/** Whether `code`, given for a job not delivered by `service`, is the job's for good (dead letter after MAX_TRIES). */
export function isPermanent(service: RuntimeService, code: ServiceErrorName): boolean {
  return service !== 'script' && PERMANENT[service].includes(code);
}
