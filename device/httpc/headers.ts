// The headers of the HTTP client's requests (spec §3 pew_httpc; docs/services.md): the unit's own
// (User-Agent, basic authentication of server_user, the Content-Type of a body) and the section's
// custom headers. One home for the requests the PLC asks for (run.ts) and for the connection test
// (services/http-test.ts), so the test meets the server as the requests will.
import { CONTENT_TYPES, type Httpc } from '../model/sections/httpc.ts';

/** What a request carries: no body, a body from PLC memory (the section's content type), a log file (CSV). */
export type HttpBodyKind = 'none' | 'plc' | 'logfile';

export const LOGFILE_CONTENT_TYPE = 'text/csv; charset=utf-8';

/** HTTP basic authentication (RFC 7617): the server's login, and the proxy's in its CONNECT. */
export const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** The Content-Type of a body, by where it comes from. */
export function contentTypeOf(h: Pick<Httpc, 'content_type'>, body: HttpBodyKind): string | undefined {
  if (body === 'logfile') return LOGFILE_CONTENT_TYPE;
  return body === 'plc' ? CONTENT_TYPES[h.content_type] : undefined;
}

/**
 * The request's headers. The custom headers come last; the schema refuses the names the unit sets
 * itself (Host, Content-Length, Content-Type, Transfer-Encoding, Connection; Authorization while
 * server_user is set), so none of them replaces the unit's own.
 */
export function requestHeaders(
  h: Pick<Httpc, 'server_user' | 'server_password' | 'content_type' | 'headers'>,
  userAgent: string,
  body: HttpBodyKind,
): Record<string, string> {
  const out: Record<string, string> = { 'user-agent': userAgent };
  const type = contentTypeOf(h, body);
  if (type) out['content-type'] = type;
  if (h.server_user) out.authorization = basicAuth(h.server_user, h.server_password);
  for (const x of h.headers) out[x.name.toLowerCase()] = x.value;
  return out;
}
