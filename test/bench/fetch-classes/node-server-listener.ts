// Bundled in place of device/net/hono-listener.ts for the fetch-classes bench (../fetch-classes.ts):
// the well-kept way, @hono/node-server's request listener with node's own Headers, Request and
// Response (undici's). `overrideGlobalObjects: false`: the listener leaves the globals as node made them.
import { getRequestListener } from '@hono/node-server';

export function honoListener(fetch: Parameters<typeof getRequestListener>[0]): ReturnType<typeof getRequestListener> {
  return getRequestListener(fetch, { overrideGlobalObjects: false });
}
