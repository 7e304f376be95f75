// The console's local test mode (spec §7: "the paths are prefixed with a local server") runs the
// console from another origin (a dev server) against the simulator. Only the one origin named on
// the simulator's command line (`--dev-origin http://127.0.0.1:5173`) may make credentialed
// requests; without it nobody may, and the unit never answers cross-origin. A pattern such as "any
// loopback origin" would hand the admin's session to every page served on the machine, the unit's
// own REST HTTP server included (issue 16 item 7).
// Sessions stay as strict as ever: the cookie is SameSite=Strict and every POST still needs the
// session's X-CSRF-Token.
import { cors } from 'hono/cors';

/** An origin as a browser sends it: scheme, host and optional port, nothing else. */
const ORIGIN = /^https?:\/\/([a-z0-9.-]+|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

/** The origin of `--dev-origin`, checked; throws with a message for the command line. */
export function parseDevOrigin(text: string): string {
  if (!ORIGIN.test(text)) throw new Error(`--dev-origin must be an origin such as http://127.0.0.1:5173, got "${text}"`);
  return text.toLowerCase();
}

export const devCors = (allowed: string) =>
  cors({
    origin: (origin) => (origin.toLowerCase() === allowed ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'POST'],
    allowHeaders: ['Content-Type', 'X-CSRF-Token'],
    maxAge: 600,
  });
