import { describe, expect, it } from 'vitest';
import { requestFailure } from './run.ts';

const err = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('what an HTTP request that got no answer becomes', () => {
  it('a proxy refusing its login or the tunnel, and a TLS failure, end the request; an unreachable peer waits', () => {
    expect(requestFailure(err('Proxy response (407) !== 200 when HTTP Tunneling', 'UND_ERR_ABORTED'))).toEqual({ code: 'auth_failed', wait: false });
    expect(requestFailure(err('Proxy response (502) !== 200 when HTTP Tunneling'))).toEqual({ code: 'server_refused', wait: false });
    expect(requestFailure(err('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT'))).toEqual({ code: 'tls', wait: false });
    expect(requestFailure(err("Hostname/IP does not match certificate's altnames", 'ERR_TLS_CERT_ALTNAME_INVALID'))).toEqual({ code: 'tls', wait: false });
    expect(requestFailure(err('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED'))).toEqual({ code: 'refused', wait: true });
    expect(requestFailure(err('getaddrinfo ENOTFOUND nowhere.invalid', 'ENOTFOUND'))).toEqual({ code: 'unknown_host', wait: true });
    expect(requestFailure(err('connect ETIMEDOUT', 'ETIMEDOUT'))).toEqual({ code: 'timeout', wait: true });
    expect(requestFailure(err('other side closed', 'UND_ERR_SOCKET'))).toEqual({ code: 'other', wait: true });
  });
});
