// The names the server's directory holds, so that an upload never replaces a file there
// (docs/ftp.md "No file is replaced"; the numbering is device/system/unique-name.ts). The directory
// is listed once per attempt (MLSD or LIST, whichever the server offers); a server that refuses the
// listing (an upload-only directory) is asked for each name with SIZE instead, where 550 means no
// such file. Names given out by the attempt count as taken from then on.
import type { Client } from 'basic-ftp';
import { type TakenNames, takenIn } from '../system/unique-name.ts';

/** the reply code of an FTP answer that refused a command (basic-ftp's FTPError carries it as a number) */
const replyCode = (e: unknown): number | undefined => {
  const code = (e as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' ? code : undefined;
};

async function exists(client: Pick<Client, 'size'>, name: string): Promise<boolean> {
  try {
    await client.size(name);
    return true;
  } catch (e) {
    if (replyCode(e) === 550) return false;
    throw e;
  }
}

/** The names of the current directory of `client` as a `Taken` (see the file's head). */
export async function remoteNames(client: Pick<Client, 'list' | 'size'>): Promise<TakenNames> {
  try {
    return takenIn((await client.list()).map((f) => f.name));
  } catch (e) {
    if (replyCode(e) === undefined) throw e;
  }
  const given = takenIn([]);
  return Object.assign(async (name: string) => given(name) || (await exists(client, name)), { add: given.add });
}
