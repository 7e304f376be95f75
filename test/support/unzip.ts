// Test support: reads a ZIP archive with an independent implementation (Python's zipfile, which
// checks every CRC in testzip()), so our writer is never judged by its own reader.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface UnzippedEntry {
  name: string;
  data: Buffer;
  /** [year, month, day, hour, minute, second] as stored */
  dateTime: number[];
  method: number;
  flags: number;
}

const READER = `
import base64, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    out = [{'name': i.filename, 'data': base64.b64encode(z.read(i)).decode(), 'dateTime': list(i.date_time),
            'method': i.compress_type, 'flags': i.flag_bits} for i in z.infolist()]
print(json.dumps({'bad': bad, 'entries': out}))
`;

/** Every entry of the archive; throws when Python reports a damaged member. */
export function unzip(archive: Uint8Array): UnzippedEntry[] {
  const dir = mkdtempSync(join(tmpdir(), 'unzip-'));
  try {
    const file = join(dir, 'a.zip');
    writeFileSync(file, archive);
    const res = JSON.parse(execFileSync('python3', ['-c', READER, file], { encoding: 'utf8' }));
    if (res.bad !== null) throw new Error(`damaged zip member ${res.bad}`);
    return res.entries.map((e: { data: string }) => ({ ...e, data: Buffer.from(e.data, 'base64') }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each file entry by name. */
export function unzipText(archive: Uint8Array): Record<string, string> {
  return Object.fromEntries(unzip(archive).map((e) => [e.name, e.data.toString('utf8')]));
}
