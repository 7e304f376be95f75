// The script's part of the one status answer (device/model/service-status.ts, entry 'script'):
// the errors that keep a saved script from running, every section with its last run, and the last
// statement that failed with its line. Shown live on /script.
import * as v from 'valibot';
import { SCRIPT_ERROR_CODES } from './language.ts';

const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

export const scriptSectionStatusSchema = v.object({
  /** as the script writes it: init, cycle 60, on R10A */
  section: v.string(),
  /** line of the section's head */
  line: count(),
  runs: count(),
  /** cycles that came due while the section still ran (skipped, never stacked) */
  overruns: count(),
  /** unit clock ms of the last start, and how long that run took */
  lastRun: v.optional(v.number()),
  durationMs: v.optional(count()),
});

export const scriptStatusSchema = v.object({
  /** the errors of the saved script (it does not run while there are any) */
  errors: v.array(
    v.object({
      line: count(),
      column: count(),
      code: v.picklist(SCRIPT_ERROR_CODES),
      params: v.optional(v.record(v.string(), v.union([v.string(), v.number()]))),
    }),
  ),
  sections: v.array(scriptSectionStatusSchema),
  /** the last statement that failed: its line, its words, when */
  lastFailure: v.optional(v.object({ line: count(), message: v.string(), at: v.number() })),
});
export type ScriptStatus = v.InferOutput<typeof scriptStatusSchema>;
