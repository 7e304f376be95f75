import { describe, expect, it } from 'vitest';
import { proxyAddress, socksFailure, socksProxyOf } from './socks-proxy.ts';

describe('SOCKS proxy', () => {
  it("the section's proxy: none while its address is empty; IPv6 in brackets", () => {
    expect(socksProxyOf({ proxy_ip: '', proxy_port: 1080 })).toBeUndefined();
    expect(socksProxyOf({ proxy_ip: 'socks.example', proxy_port: 1081 })).toEqual({ host: 'socks.example', port: 1081 });
    expect(proxyAddress({ host: 'fd00::1', port: 1080 })).toBe('[fd00::1]:1080');
  });

  it("the proxy's SOCKS5 replies and failures as a reason", () => {
    expect(socksFailure('Socks5 proxy rejected connection - ConnectionRefused')).toBe('refused');
    expect(socksFailure('Socks5 proxy rejected connection - HostUnreachable')).toBe('refused');
    expect(socksFailure('Socks5 proxy rejected connection - TTLExpired')).toBe('timeout');
    expect(socksFailure('Socks5 proxy rejected connection - NotAllowed')).toBe('peer_error');
    expect(socksFailure('Proxy connection timed out')).toBe('timeout');
    expect(socksFailure('Socket closed')).toBe('bad_reply');
  });
});
