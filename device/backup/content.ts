// What a backup holds (spec §2 /backuprestore; security.md BK-1, ZIP-1, AUTH-5): every configuration
// section and the files of the unit's folders (certificates, HTTP files, scripts, log configuration
// files), as gzip-compressed JSON. Reading it back is bounded like an archive extraction (ZIP-1):
// the decompressed size, the number of files and their total size are capped, and every file name
// is checked against the shape its folder allows before anything is written.
//
// A backup without a password is only checksummed, so it carries no secrets: the secret fields of
// the sections are emptied, and a restore keeps the unit's current secrets there.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as v from 'valibot';
import { FORMAT_FOLDER } from '../logger/engine.ts';
import { clearSecrets } from '../model/secrets.ts';
import type { SectionDef } from '../model/section.ts';
import { HTTP_FOLDER } from '../rest/http-files.ts';
import { CERT_FOLDER } from '../system/cert-files.ts';
import { SCRIPT_FOLDER } from '../system/script-files.ts';
import { isPlainName } from '../system/volume-files.ts';
import { BackupRefused } from './format.ts';

/** The folders of `<dataDir>` a backup carries, replaced as a whole by a restore. */
export const FILE_FOLDERS = [CERT_FOLDER, HTTP_FOLDER, SCRIPT_FOLDER, FORMAT_FOLDER] as const;
export type FileFolder = (typeof FILE_FOLDERS)[number];

// caps of a restore (ZIP-1): the largest real content is a few dozen HTTP files of up to 4 MiB
export const FILES_MAX = 1024;
export const FILES_BYTES_MAX = 48 * 1024 * 1024;
/** decompressed content: the files as base64 (4/3) plus the sections */
export const CONTENT_MAX = Math.ceil((FILES_BYTES_MAX * 4) / 3) + 8 * 1024 * 1024;

export interface BackupFile {
  folder: FileFolder;
  /** `<section>/<name>` in the certificate folder, a plain name elsewhere */
  path: string;
  data: Buffer;
}

export interface BackupContent {
  sections: Record<string, unknown>;
  files: BackupFile[];
}

// certificates live one level down, named as device/system/cert-files.ts allows
const CERT_PATH = /^[a-z0-9_]+\/(ca|client|server|key)\.[a-z]{3}$/;
export const validPath = (folder: FileFolder, path: string): boolean => (folder === CERT_FOLDER ? CERT_PATH.test(path) : isPlainName(path));

async function listFiles(root: string, folder: FileFolder): Promise<BackupFile[]> {
  const dir = join(root, folder);
  const names = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: BackupFile[] = [];
  for (const e of names) {
    if (folder === CERT_FOLDER && e.isDirectory()) {
      for (const f of await readdir(join(dir, e.name), { withFileTypes: true })) {
        const path = `${e.name}/${f.name}`;
        if (f.isFile() && validPath(folder, path)) out.push({ folder, path, data: await readFile(join(dir, path)) });
      }
    } else if (e.isFile() && validPath(folder, e.name)) out.push({ folder, path: e.name, data: await readFile(join(dir, e.name)) });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The unit's sections and files; `withSecrets` false empties every secret field (AUTH-5). */
export async function collectContent(
  dataDir: string,
  defs: readonly SectionDef[],
  read: (key: string) => unknown,
  withSecrets: boolean,
): Promise<BackupContent> {
  const sections: Record<string, unknown> = {};
  for (const def of defs) {
    const value = { ...(read(def.key) as Record<string, unknown>) };
    sections[def.key] = withSecrets ? value : clearSecrets(def, value);
  }
  const files = (await Promise.all(FILE_FOLDERS.map((f) => listFiles(dataDir, f)))).flat();
  const bytes = files.reduce((n, f) => n + f.data.length, 0);
  if (files.length > FILES_MAX || bytes > FILES_BYTES_MAX)
    throw new RangeError(`the unit's files exceed what a backup holds (${files.length} files, ${bytes} bytes)`);
  return { sections, files };
}

/** The current format's content as compressed bytes. */
export function encodeContent(c: BackupContent): Buffer {
  const json = { sections: c.sections, files: c.files.map((f) => ({ folder: f.folder, path: f.path, data: f.data.toString('base64') })) };
  return gzipSync(JSON.stringify(json));
}

/** Decompressed and parsed, within CONTENT_MAX; the shape is checked by the migration's schema. */
export function decodeJson(bytes: Buffer): unknown {
  let text: Buffer;
  try {
    text = gunzipSync(bytes, { maxOutputLength: CONTENT_MAX });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new BackupRefused('too_large', 'The backup content is too large');
    throw new BackupRefused('content', 'The backup content cannot be read');
  }
  try {
    return JSON.parse(text.toString('utf8')) as unknown;
  } catch {
    throw new BackupRefused('content', 'The backup content cannot be read');
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const currentSchema = v.strictObject({
  sections: v.record(v.string(), v.unknown()),
  files: v.pipe(
    v.array(v.strictObject({ folder: v.picklist(FILE_FOLDERS), path: v.pipe(v.string(), v.maxLength(300)), data: v.pipe(v.string(), v.regex(BASE64)) })),
    v.maxLength(FILES_MAX),
  ),
});
export type ContentJson = v.InferOutput<typeof currentSchema>;

/** The current format's JSON checked and turned into content: names, count and total size (ZIP-1). */
export function toContent(json: unknown): BackupContent {
  const parsed = v.safeParse(currentSchema, json);
  if (!parsed.success) throw new BackupRefused('content', 'The backup content has an unexpected shape');
  const seen = new Set<string>();
  let bytes = 0;
  const files = parsed.output.files.map((f) => {
    const id = `${f.folder}/${f.path}`;
    if (!validPath(f.folder, f.path) || seen.has(id))
      throw new BackupRefused('content', `The backup holds an invalid file name: ${JSON.stringify(id).slice(0, 80)}`);
    seen.add(id);
    const data = Buffer.from(f.data, 'base64');
    bytes += data.length;
    if (bytes > FILES_BYTES_MAX) throw new BackupRefused('too_large', 'The files of the backup are too large');
    return { folder: f.folder, path: f.path, data };
  });
  return { sections: parsed.output.sections, files };
}
