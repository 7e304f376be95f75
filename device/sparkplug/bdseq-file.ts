// The bdSeq of the last CONNECT sent, kept on the unit's storage (<dataDir>/sparkplug/bdseq) across
// restarts (docs/sparkplug.md "Session"): after a kill -9 and a quick restart the broker may deliver
// the old session's will after the new NBIRTH, so the new session must not carry the same number.
// Written crash-safe (hw/atomic-file.ts): after a power cut the file holds the old or the new value.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../hw/atomic-file.ts';

export const bdSeqFile = (dataDir: string): string => join(dataDir, 'sparkplug', 'bdseq');

/** The bdSeq kept in `file`; undefined when there is none (first start) or it is no number 0..255. */
export async function readBdSeq(file: string): Promise<number | undefined> {
  try {
    const text = (await readFile(file, 'utf8')).trim();
    if (!/^\d{1,3}$/.test(text)) return undefined;
    const n = Number(text);
    return n <= 255 ? n : undefined;
  } catch {
    return undefined;
  }
}

export async function writeBdSeq(file: string, n: number): Promise<void> {
  await writeFileAtomic(file, `${n}\n`);
}

/** The edge node's MQTT client id: the unit's (engine.ts clientIdAt) with `-spb`, at most 23 characters (MQTT 3.1.1 §3.1.3.1). */
export const sparkplugClientId = (unitClientId: string): string => `${unitClientId.slice(0, 19)}-spb`;
