// The integration project runs every test with the daemon's fetch classes in the globals
// (test/support/daemon-globals-setup.ts), as device/main.ts installs them: the client libraries the
// tests drive against real peers (mqtt, pg, mysql2, mongodb, nodemailer, basic-ftp, the HTTP client)
// see what they see in the daemon, also in a file that starts no daemon of its own.
import { describe, expect, it } from 'vitest';
import { DaemonHeaders } from '../../device/net/fetch/headers.ts';
import { DaemonRequest } from '../../device/net/fetch/request.ts';
import { DaemonResponse } from '../../device/net/fetch/response.ts';

describe("the daemon's fetch classes in every integration test", () => {
  it('Headers, Request and Response are the daemon’s before any test starts a daemon', () => {
    expect(globalThis.Headers).toBe(DaemonHeaders);
    expect(globalThis.Request).toBe(DaemonRequest);
    expect(globalThis.Response).toBe(DaemonResponse);
  });
});
