// The step runner of the connection tests: steps in order, the first failure ends the test with
// its reason, errno and TLS codes classified, a step that hangs times out.
import { connect, createServer } from 'node:net';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { serviceTestResultSchema, type TestProgress, testNote } from '../model/servicetest.ts';
import { classify, runTest, StepFailure, watchTestSteps } from './test-run.ts';

const errno = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('connection test runner', () => {
  it('records each step with its note and passes when all pass', async () => {
    const r = await runTest('db:5432', async (t) => {
      await t.step('connect', async () => 1);
      await t.step('database', async () => 'plant', { note: (database) => testNote('database', { database }, 'PostgreSQL 16') });
    });
    expect(r).toMatchObject({
      ok: true,
      peer: 'db:5432',
      steps: [
        { step: 'connect', ok: true },
        { step: 'database', ok: true, note: { code: 'database', args: { database: 'plant' }, words: 'PostgreSQL 16' } },
      ],
    });
    expect(r.failure).toBeUndefined();
    expect(v.safeParse(serviceTestResultSchema, r).success).toBe(true);
  });

  it('tells a watcher of each step as it begins and ends; a failing watcher changes nothing', async () => {
    const seen: TestProgress[] = [];
    const body = async (t: Parameters<Parameters<typeof runTest>[1]>[0]) => {
      await t.step('connect', async () => 1);
      await t.step('login', async () => {
        throw new StepFailure('auth_failed', 'bad password');
      });
    };
    const r = await watchTestSteps(
      (p) => seen.push(p),
      () => runTest('broker:1883', body),
    );
    expect(seen).toEqual([{ running: 'connect' }, { step: { step: 'connect', ok: true } }, { running: 'login' }, { step: { step: 'login', ok: false } }]);
    const broken = await watchTestSteps(
      () => {
        throw new Error('gone');
      },
      () => runTest('broker:1883', body),
    );
    expect({ ...broken, ms: 0 }).toEqual({ ...r, ms: 0 });
    // a test run outside watchTestSteps tells no one
    expect(seen.length).toBe(4);
    await runTest('broker:1883', body);
    expect(seen.length).toBe(4);
  });

  it("stops at the first failing step and keeps the peer's words", async () => {
    let reached = false;
    const r = await runTest('db:5432', async (t) => {
      await t.step('connect', async () => 1);
      await t.step('login', async () => {
        throw new StepFailure('auth_failed', 'password authentication failed for user "plc"');
      });
      reached = true;
    });
    expect(reached).toBe(false);
    expect(r.ok).toBe(false);
    expect(r.steps.map((s) => [s.step, s.ok])).toEqual([
      ['connect', true],
      ['login', false],
    ]);
    expect(r.failure).toEqual({ reason: 'auth_failed', message: 'password authentication failed for user "plc"' });
  });

  it('a step that does not finish in time fails with timeout', async () => {
    const r = await runTest('x', async (t) => {
      await t.step('request', () => new Promise(() => {}), { ms: 50 });
    });
    expect(r.failure?.reason).toBe('timeout');
    expect(r.failure?.message).toContain('50 ms');
  });

  it('classifies errno and TLS errors', () => {
    expect(classify(errno('ENOTFOUND')).reason).toBe('unknown_host');
    expect(classify(errno('ECONNREFUSED')).reason).toBe('refused');
    expect(classify(errno('ETIMEDOUT')).reason).toBe('timeout');
    expect(classify(errno('DEPTH_ZERO_SELF_SIGNED_CERT')).reason).toBe('tls_untrusted');
    expect(classify(errno('UNABLE_TO_VERIFY_LEAF_SIGNATURE')).reason).toBe('tls_untrusted');
    expect(classify(errno('ERR_SSL_UNSUPPORTED_PROTOCOL')).reason).toBe('tls_version');
    expect(classify(errno('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION')).reason).toBe('tls_version');
    expect(classify(new Error('relation "log" does not exist')).reason).toBe('peer_error');
    expect(classify(new Error('relation "log" does not exist')).message).toBe('relation "log" does not exist');
  });

  it('a real refused connection is classified as refused', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    const r = await runTest(`127.0.0.1:${port}`, async (t) => {
      await t.step(
        'connect',
        () =>
          new Promise((resolve, reject) => {
            const s = connect(port, '127.0.0.1', () => resolve(s.destroy()));
            s.once('error', reject);
          }),
      );
    });
    expect(r.failure?.reason).toBe('refused');
  });
});
