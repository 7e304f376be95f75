// The Host check of security.md HOST-1 on a Hono request (device/system/hosts.ts decides): the
// console's unauthenticated routes (auth.ts) and every request of the REST port (rest/app.ts).
import type { Context } from 'hono';
import { ApiError } from './errors.ts';
import { isUnitHost } from '../system/hosts.ts';

/** The local address of the connection a Hono request on @hono/node-server came in on. */
export function localAddressOf(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { localAddress?: string } } } | undefined;
  return env?.incoming?.socket?.localAddress;
}

/** Refuses a request whose Host does not name this unit: 403 `host_not_allowed`. */
export function checkHost(c: Context, hostname: string, configured: readonly string[]): void {
  if (!isUnitHost(c.req.header('host'), { localAddress: localAddressOf(c), hostname, configured }))
    throw new ApiError(403, 'host_not_allowed', 'The Host header does not name this unit: add the name to the REST settings (host names) to use it');
}
