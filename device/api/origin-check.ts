// A second guard beside the CSRF token (docs/api.md HDR-2): a browser names the page that sent a
// state-changing request in `Origin`. The console's own pages are served from the origin the
// request is addressed to (scheme of the connection, `Host` header), so any other origin, and the
// opaque `null` of sandboxed frames and local files, is refused with 403 `origin_not_allowed`
// before the route runs. A request without `Origin` (a tool such as curl; browsers send one with
// every POST) passes to the CSRF check. The simulator's `--dev-origin` is the one other origin.
import type { Context } from 'hono';
import { overTls } from './connection.ts';
import { ApiError } from './errors.ts';

/** Throws 403 `origin_not_allowed` when the request's Origin is neither its own nor `devOrigin`. */
export function checkOrigin(c: Context, devOrigin?: string): void {
  const origin = c.req.header('origin');
  if (origin === undefined) return;
  const own = `${overTls(c) ? 'https' : 'http'}://${c.req.header('host') ?? ''}`.toLowerCase();
  const sent = origin.trim().toLowerCase();
  if (sent === own || (devOrigin !== undefined && sent === devOrigin)) return;
  throw new ApiError(403, 'origin_not_allowed', 'The request comes from another site (Origin)');
}
