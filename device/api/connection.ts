// Facts of the connection a Hono request came in on (c.env is its node
// IncomingMessage and ServerResponse): the local address it arrived at, and whether it is TLS.
import type { Context } from 'hono';

interface NodeEnv {
  incoming?: { socket?: { localAddress?: string; encrypted?: boolean } };
}

const socketOf = (c: Context) => (c.env as NodeEnv | undefined)?.incoming?.socket;

/** The local address the request's connection arrived at. */
export const localAddressOf = (c: Context): string | undefined => socketOf(c)?.localAddress;

/**
 * Whether the request came over TLS: from the socket, not from the request line, whose absolute
 * form (`GET https://…`) a client chooses freely.
 */
export const overTls = (c: Context): boolean => socketOf(c)?.encrypted === true;
