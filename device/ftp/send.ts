// One attempt of an FTP send (spec §3 pew_ftpc, §4 rename after a successful send): log in with the
// section's transfer modes (device/services/ftp-client.ts), change to server_dir, and upload the
// chosen files one after another. No file is replaced (docs/ftp.md): a file goes under its own name
// when the server's directory has no file of that name, else under the first free numbered name
// (`audit_log_1.csv`; device/system/unique-name.ts), and the local file is renamed after the name
// it has on the server with the replacement extension (file_ext_replacement), numbered the same way
// when a file of that name is here already. The rename follows right after the server confirmed the
// upload (226), so a file is renamed only once it is on the server; a file whose upload failed is
// left as it was, and the retry uploads it under the name the broken upload used (`resume`), so
// that it replaces only what its own broken transfer left on the server. The first failure ends
// the attempt: the files not sent yet wait for the retry.
import { createReadStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import type { Client } from 'basic-ftp';
import type { Ftpc } from '../model/sections/ftpc.ts';
import { isFtpError, openFtp } from '../services/ftp-client.ts';
import { classify } from '../services/test-run.ts';
import { folderNames, type NameSet, type TakenNames, uniqueName } from '../system/unique-name.ts';
import { type FolderFile, openInside, RefusedName } from '../system/volume-files.ts';
import { sentName } from './local-files.ts';
import { errorOf, type FtpErrorName } from './registers.ts';
import { remoteNames } from './remote-names.ts';

export interface SentFile {
  name: string;
  /** the name on the server: `name`, or a numbered one when the server had a file of that name */
  remote: string;
  /** the local name after the rename */
  renamed: string;
  bytes: number;
}

export interface SendError {
  code: FtpErrorName;
  message: string;
  /** a local failure: trying again right away would not help */
  local?: boolean;
}

export interface AttemptResult {
  sent: SentFile[];
  /** files that vanished locally between the listing and their upload (nothing to send) */
  gone: string[];
  /** the attempt stopped before its last file because `cancelled` said so */
  cancelled?: boolean;
  error?: SendError;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The error code of a failure on the FTP connection. */
export function remoteError(e: unknown): SendError {
  const text = message(e);
  if (isFtpError(e)) {
    if (e.code === 530 || e.code === 331 || e.code === 332) return { code: 'auth_failed', message: text };
    return { code: 'server_refused', message: text };
  }
  if (/closed|FIN packet|end of stream|socket hang up/i.test(text) && !(e as { code?: unknown }).code) return { code: 'refused', message: text };
  return { code: errorOf(classify(e).reason), message: text };
}

/** ASCII transfers carry NVT-ASCII line ends: a bare LF becomes CR LF (RFC 959 §3.1.1.1). */
function crlf(): Transform {
  let lastCr = false;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const out: number[] = [];
      for (const b of chunk) {
        if (b === 0x0a && !lastCr) out.push(0x0d);
        out.push(b);
        lastCr = b === 0x0d;
      }
      done(null, Buffer.from(out));
    },
  });
}

export interface AttemptOptions {
  dataDir: string;
  /** the local folder's real path */
  folder: string;
  ext: string;
  timeoutMs?: number;
  /** stops the attempt between two files (the engine is stopping) */
  cancelled?: () => boolean;
  /**
   * The remote names of uploads this send began and did not finish, by local name: kept from one
   * attempt to its retry, which uploads the file again under the same name.
   */
  resume?: Map<string, string>;
}

export async function sendAttempt(f: Ftpc, files: readonly FolderFile[], o: AttemptOptions): Promise<AttemptResult> {
  const result: AttemptResult = { sent: [], gone: [] };
  const resume = o.resume ?? new Map<string, string>();
  let here: NameSet;
  try {
    here = await folderNames(o.folder);
  } catch (e) {
    return { ...result, error: { code: 'local', message: `local directory: ${message(e)}`, local: true } };
  }
  let client: Client;
  try {
    client = await openFtp(f, o.dataDir, o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs });
  } catch (e) {
    return { ...result, error: remoteError(e) };
  }
  try {
    if (f.server_dir !== '') await client.cd(f.server_dir);
    let onServer: TakenNames | undefined; // listed when the first file goes
    for (const file of files) {
      if (o.cancelled?.()) {
        result.cancelled = true;
        break;
      }
      let source: Readable;
      let bytes: number;
      try {
        const opened = await openInside(o.folder, file.name);
        bytes = opened.size;
        source = createReadStream('', { fd: opened.handle, autoClose: true });
      } catch (e) {
        if (e instanceof RefusedName && e.reason === 'missing') {
          result.gone.push(file.name);
          continue;
        }
        result.error = { code: 'local', message: `${file.name}: ${message(e)}`, local: true };
        break;
      }
      let remote: string;
      try {
        onServer ??= await remoteNames(client);
        remote = resume.get(file.name) ?? (await uniqueName(file.name, onServer));
        resume.set(file.name, remote);
        await client.uploadFrom(f.transfermode_ascii ? source.pipe(crlf()) : source, remote);
      } catch (e) {
        result.error = remoteError(e);
        break;
      } finally {
        // closes the file on every path (a no-op for a stream read to its end, which closed it)
        source.destroy();
      }
      resume.delete(file.name);
      onServer.add(remote);
      let renamed: string;
      try {
        renamed = await uniqueName(sentName(remote, o.ext), here);
        await rename(join(o.folder, file.name), join(o.folder, renamed));
        here.add(renamed);
      } catch (e) {
        // on the server, but still under its name here: it goes again with the next send (under a numbered name there)
        result.error = { code: 'local', message: `${file.name} sent as ${remote} but not renamed: ${message(e)}`, local: true };
        break;
      }
      result.sent.push({ name: file.name, remote, renamed, bytes });
    }
  } catch (e) {
    result.error = remoteError(e);
  } finally {
    client.close();
  }
  return result;
}
