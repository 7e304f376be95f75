// One attempt of an FTP send (spec §3 pew_ftpc, §4 rename after a successful send): log in with the
// section's transfer modes (device/services/ftp-client.ts), change to server_dir, and upload the
// chosen files one after another under their own names. Each file is renamed (file_ext_replacement)
// right after the server confirmed its upload (226), so a file is renamed only once it is on the
// server; a file whose upload failed is left as it was, and the retry's upload of the same name
// overwrites what a broken transfer left on the server. The first failure ends the attempt: the
// files not sent yet wait for the retry.
import { createReadStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import type { Client } from 'basic-ftp';
import type { Ftpc } from '../model/sections/ftpc.ts';
import { isFtpError, openFtp } from '../services/ftp-client.ts';
import { classify } from '../services/test-run.ts';
import { type FolderFile, openInside, RefusedName } from '../system/volume-files.ts';
import { sentName } from './local-files.ts';
import { errorOf, type FtpErrorName } from './registers.ts';

export interface SentFile {
  name: string;
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

/** The error code of a failure on the FTP connection. */
export function remoteError(e: unknown): SendError {
  const message = e instanceof Error ? e.message : String(e);
  if (isFtpError(e)) {
    if (e.code === 530 || e.code === 331 || e.code === 332) return { code: 'auth_failed', message };
    return { code: 'server_refused', message };
  }
  if (/closed|FIN packet|end of stream|socket hang up/i.test(message) && !(e as { code?: unknown }).code) return { code: 'refused', message };
  return { code: errorOf(classify(e).reason), message };
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
}

export async function sendAttempt(f: Ftpc, files: readonly FolderFile[], o: AttemptOptions): Promise<AttemptResult> {
  const result: AttemptResult = { sent: [], gone: [] };
  let client: Client;
  try {
    client = await openFtp(f, o.dataDir, o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs });
  } catch (e) {
    return { ...result, error: remoteError(e) };
  }
  try {
    if (f.server_dir !== '') await client.cd(f.server_dir);
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
        result.error = { code: 'local', message: `${file.name}: ${e instanceof Error ? e.message : String(e)}`, local: true };
        break;
      }
      try {
        await client.uploadFrom(f.transfermode_ascii ? source.pipe(crlf()) : source, file.name);
      } catch (e) {
        source.destroy();
        result.error = remoteError(e);
        break;
      }
      const renamed = sentName(file.name, o.ext);
      try {
        await rename(join(o.folder, file.name), join(o.folder, renamed));
      } catch (e) {
        // on the server, but still under its name here: it goes again with the next send
        result.error = { code: 'local', message: `${file.name} sent but not renamed: ${e instanceof Error ? e.message : String(e)}`, local: true };
        break;
      }
      result.sent.push({ name: file.name, renamed, bytes });
    }
  } catch (e) {
    result.error = remoteError(e);
  } finally {
    client.close();
  }
  return result;
}
