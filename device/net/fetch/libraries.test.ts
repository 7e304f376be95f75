// The code of the client libraries the daemon loads that makes Fetch objects itself, run with the
// daemon's classes in the globals (install.ts, as device/main.ts installs them) where no
// integration test reaches it against a real peer: pg's runtime check when it loads, and the
// signature of mongodb's MONGODB-AWS authentication. The rest of each library runs against its peers
// in the integration tests, which all have these globals (test/support/daemon-globals-setup.ts).
import { createRequire } from 'node:module';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DaemonHeaders } from './headers.ts';
import { installDaemonFetchClasses } from './install.ts';
import { nativeFetchClass } from './native.ts';
import { DaemonResponse } from './response.ts';

const require = createRequire(import.meta.url);

/** A module of a library evaluated anew, under the globals as they are now. */
function fresh<T>(id: string): T {
  delete require.cache[require.resolve(id)];
  return require(id) as T;
}

type Aws4Sign = (options: Record<string, unknown>, credentials: Record<string, string>) => Promise<{ Authorization: string; 'X-Amz-Date': string }>;

const SIGN_OPTIONS = {
  method: 'POST',
  path: '/',
  host: 'sts.amazonaws.com',
  region: 'us-east-1',
  service: 'sts',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': 43, 'X-MongoDB-Server-Nonce': 'bm9uY2U=', 'X-MongoDB-GS2-CB-Flag': 'n' },
  body: 'Action=GetCallerIdentity&Version=2011-06-15',
  date: new Date(Date.UTC(2026, 11, 3, 12, 0, 0)),
};
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'token' };

describe("client libraries with the daemon's fetch classes in the globals", () => {
  it('pg sees a node runtime when it loads (its Cloudflare check makes a Response) and opens node sockets', () => {
    installDaemonFetchClasses();
    expect(globalThis.Response).toBe(DaemonResponse);
    const { getStream } = fresh<{ getStream(ssl: boolean): unknown }>('pg/lib/stream.js');
    const socket = getStream(false);
    expect(socket).toBeInstanceOf(Socket);
    (socket as Socket).destroy();
  });

  it("mongodb's MONGODB-AWS signature is the one node's Headers give", async () => {
    installDaemonFetchClasses();
    expect(globalThis.Headers).toBe(DaemonHeaders);
    const { aws4Sign } = require('mongodb/lib/cmap/auth/aws4.js') as { aws4Sign: Aws4Sign };
    const ours = await aws4Sign(SIGN_OPTIONS, CREDENTIALS);
    const own = Object.getOwnPropertyDescriptor(globalThis, 'Headers')!;
    Object.defineProperty(globalThis, 'Headers', { ...own, value: nativeFetchClass('Headers') });
    try {
      expect(ours).toEqual(await aws4Sign(SIGN_OPTIONS, CREDENTIALS));
    } finally {
      Object.defineProperty(globalThis, 'Headers', own);
    }
    expect(ours.Authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20261203\/us-east-1\/sts\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-security-token;x-mongodb-gs2-cb-flag;x-mongodb-server-nonce, Signature=[0-9a-f]{64}$/,
    );
  });
});
