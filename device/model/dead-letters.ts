// The dead letters of the queued services (docs/services.md "Dead letters"): the services that keep
// them and the body of a retry or discard (`POST /config/dead_letters_retry`, `…_discard`), one
// schema for the console and the daemon.
import * as v from 'valibot';

/** the services whose jobs wait in a queue and may become dead letters */
export const DEAD_LETTER_SERVICES = ['mqtt', 'httpc', 'email', 'sql', 'nosql'] as const;
export type DeadLetterService = (typeof DEAD_LETTER_SERVICES)[number];

/** letters one retry or discard names at most (without ids: all of the service's) */
export const DEAD_LETTER_IDS_MAX = 10_000;

export const deadLetterActionSchema = v.object({
  service: v.picklist(DEAD_LETTER_SERVICES),
  /** the letters' numbers (from the download); left out: every letter of the service */
  ids: v.optional(v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(1))), v.maxLength(DEAD_LETTER_IDS_MAX))),
});
export type DeadLetterAction = v.InferOutput<typeof deadLetterActionSchema>;

/** the formats of the download */
export const DEAD_LETTER_FORMATS = ['csv', 'json'] as const;
