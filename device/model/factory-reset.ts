// Factory reset (spec §2 /info, §4; security.md AUTH-2, AUD-1): the request shape of
// `POST /config/factory_reset`, shared by the daemon and the console's confirmation. The word must
// be sent as it is: a reset cannot be triggered by an empty or replayed generic body.
import * as v from 'valibot';
import { msg } from './issues.ts';

export const FACTORY_RESET_CONFIRM = 'RESET';

export const factoryResetSchema = v.pipe(
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), msg('type', { expected: 'object' })),
  // Past the object check, the object's message is the one valibot reports for a missing key: a
  // missing word is `required`, any other text `invalid_value`. Not an optional key: valibot skips
  // the pipe of a missing optional key, and `{}` must never pass.
  v.strictObject(
    {
      confirm: v.pipe(
        v.string(msg('required')),
        v.check((x: string) => x === FACTORY_RESET_CONFIRM, msg('invalid_value', { allowed: [FACTORY_RESET_CONFIRM] })),
      ),
    },
    msg('required'),
  ),
);

/** What a factory reset removes, in the order the console lists it. */
export const FACTORY_RESET_WIPES = [
  'settings',
  'services',
  'users',
  'certificates',
  'httpFiles',
  'scripts',
  'logConfigs',
  'logFiles',
  'sessions',
  'metricsToken',
] as const;
export type FactoryResetWipe = (typeof FACTORY_RESET_WIPES)[number];

/** The answer: how many of each were removed (settings: sections set back to defaults; metricsToken: 1 when one was set). */
export type FactoryResetResult = Record<FactoryResetWipe, number>;
