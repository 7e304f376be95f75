// The connection test of the FTP client (spec §3 pew_ftpc; device/model/servicetest.ts) on the
// saved settings: connect (or through the proxy), TLS (FTPS or SSL), login, a listing of the server
// directory, and a small test file uploaded there and deleted again (write). The FTP reply codes
// name the failure: 530 a wrong login, 550 (or 450/451 saying so) on the listing a missing directory.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Client } from 'basic-ftp';
import type { Ftpc } from '../model/sections/ftpc.ts';
import { type ServiceTestResult, testNote } from '../model/servicetest.ts';
import { ftpTarget, isFtpError, openFtp, type Stage } from './ftp-client.ts';
import { runTest, StepFailure } from './test-run.ts';

/** The reason of an FTP reply code; other errors are left to the runner's classification. */
function ftpFailure(e: unknown, missing: boolean): unknown {
  if (!isFtpError(e)) return e;
  if (e.code === 530 || e.code === 331 || e.code === 332) return new StepFailure('auth_failed', e.message);
  // 550 "file unavailable"; some servers answer a missing directory with 450/451 and the system's words
  if (missing && (e.code === 550 || ((e.code === 450 || e.code === 451) && /no such file|not found|not exist/i.test(e.message))))
    return new StepFailure('not_found', e.message);
  return new StepFailure('peer_error', e.message);
}

const join = (dir: string, name: string) => (dir === '' ? name : `${dir.replace(/\/+$/, '')}/${name}`);

export async function testFtp(f: Ftpc, dataDir: string): Promise<ServiceTestResult> {
  const target = ftpTarget(f);
  const mode = f.transfermode_ssl ? 'ftps (implicit)' : f.transfermode_ftps ? 'ftp + AUTH TLS' : 'ftp';
  const peer = `${f.server_ip}:${f.server_port}${target.via ? ` via ${target.via}` : ''} (${mode})`;
  return runTest(peer, async (t) => {
    const stage: Stage = (name, fn, note) =>
      t.step(
        name,
        async () => {
          try {
            return await fn();
          } catch (e) {
            throw ftpFailure(e, false);
          }
        },
        note ? { note } : {},
      );
    const client: Client = await openFtp(f, dataDir, { stage });
    try {
      const dir = f.server_dir;
      await t.step(
        'list',
        async () => {
          try {
            return await client.list(dir);
          } catch (e) {
            throw ftpFailure(e, true);
          }
        },
        { note: (l) => testNote(dir ? 'listed' : 'listed_home', { count: l.length, dir, mode: f.transfermode_passive ? 'passive' : 'active' }) },
      );
      const name = join(dir, `pew_test_${randomBytes(4).toString('hex')}.txt`);
      const text = `connection test ${new Date().toISOString()}\r\n`;
      await t.step(
        'write',
        async () => {
          try {
            await client.uploadFrom(Readable.from([Buffer.from(text)]), name);
            await client.remove(name);
          } catch (e) {
            throw ftpFailure(e, false);
          }
        },
        { note: () => testNote('file_written', { bytes: text.length, file: name }) },
      );
    } finally {
      client.close();
    }
  });
}
