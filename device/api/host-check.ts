// The Host check of security.md HOST-1 on a Hono request (device/system/hosts.ts decides): the
// console's unauthenticated routes (auth.ts) and every request of the REST port (rest/app.ts).
import type { Context } from 'hono';
import { isUnitHost } from '../system/hosts.ts';
import { localAddressOf } from './connection.ts';
import { ApiError } from './errors.ts';

/** Refuses a request whose Host does not name this unit: 403 `host_not_allowed`. */
export function checkHost(c: Context, hostname: string, configured: readonly string[]): void {
  if (!isUnitHost(c.req.header('host'), { localAddress: localAddressOf(c), hostname, configured }))
    throw new ApiError(403, 'host_not_allowed', 'The Host header does not name this unit: add the name to the REST settings (host names) to use it');
}
