// The daemon's fetch classes in place of node's. Headers, Request and Response are the globals Hono
// makes its requests and answers with; node's own are undici's, and the first use of any of them
// loads all of undici (its HTTP client, its web stream glue): 3.6-4.6 MB of resident memory for the
// daemon's whole life, 4.7-7.9 MB with @hono/node-server's listener (docs/architecture.md), for
// classes that here only carry a request from node:http to a route and its answer back. The
// daemon's own (this folder) do just that, and keep a body as it was made, so a JSON answer goes
// to the socket as its string. Node's `fetch` is left alone: a client that calls it still gets
// undici, with undici's own classes (nativeFetchClass reaches them too).
import { DaemonHeaders } from './headers.ts';
import { DaemonRequest } from './request.ts';
import { DaemonResponse } from './response.ts';

const CLASSES = { Headers: DaemonHeaders, Request: DaemonRequest, Response: DaemonResponse } as const;

/** Puts the daemon's Headers, Request and Response in the globals (again: no change). */
export function installDaemonFetchClasses(): void {
  for (const [name, value] of Object.entries(CLASSES)) {
    Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
}
