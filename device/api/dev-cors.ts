// The console's local test mode (spec §7: "the paths are prefixed with a local server") runs the
// console from another local origin (a dev server) against the simulator. The simulator, and only
// it, lets loopback origins make credentialed requests; the unit never answers cross-origin.
// Sessions stay as strict as ever: the cookie is SameSite=Strict (loopback ports are the same site)
// and every POST still needs the session's X-CSRF-Token.
import { cors } from 'hono/cors';

/** http(s)://127.0.0.1 or localhost, any port */
export const LOOPBACK_ORIGIN = /^https?:\/\/(127\.0\.0\.1|localhost)(:\d{1,5})?$/;

export const devCors = () =>
  cors({
    origin: (origin) => (LOOPBACK_ORIGIN.test(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'POST'],
    allowHeaders: ['Content-Type', 'X-CSRF-Token'],
    maxAge: 600,
  });
