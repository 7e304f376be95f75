// The unit's system services as the console changes them (spec §3 service names, §4 "a service is
// either enabled or disabled", §7 pew_system): the request shape of `POST /config/pew_system`,
// checked by the daemon (the changes themselves: service-states.ts).
import * as v from 'valibot';
import { SERVICE_NAMES, type ServiceName } from '../../hw/types.ts';
import { msg } from './issues.ts';

const enabled = v.boolean(msg('type', { expected: 'boolean' }));

/**
 * The services to change and their new state, e.g. `{ "x11vnc": true, "sshd": false }`; the ones
 * left out keep their state. An unknown name is `unknown_key`, a value other than true/false `type`.
 */
export const serviceChangesSchema = v.pipe(
  // an array is an object to JavaScript (and to strictObject): refused as the wrong type first
  v.custom<Record<string, unknown>>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), msg('type', { expected: 'object' })),
  v.strictObject(
    Object.fromEntries(SERVICE_NAMES.map((n) => [n, v.optional(enabled)])) as Record<ServiceName, v.OptionalSchema<typeof enabled, undefined>>,
    msg('type', { expected: 'object' }),
  ),
  v.check((x) => Object.keys(x).length > 0, msg('required')),
);
