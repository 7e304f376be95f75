// The check of an uploaded device image, all of it before anything is unpacked (security.md FW-1,
// ZIP-1; spec §5 firmware and version compatibility). In order: the .md5 (a transport check only),
// the archive's directory (contained names, no links, count, size and ratio caps), the signature of
// manifest.json by a trusted key, the version (never older than the running one), the minimum
// app/BSP/HMI versions, and finally every file against its signed size and SHA-256 — a file that is
// not listed, or listed and missing, refuses the image as well.
import { createHash, type KeyObject } from 'node:crypto';
import * as v from 'valibot';
import { parseMd5File, type UpdateRefusal } from '../model/firmware.ts';
import { compareVersions, type VersionKind } from '../model/versions.ts';
import { readZip, type UnzipLimits, ZipRefused } from '../system/unzip.ts';
import { MANIFEST_FILE, type Manifest, manifestSchema, SIGNATURE_FILE, sha256, signedByTrusted } from './manifest.ts';

/** ZIP-1 caps of an image: the release is a bundle, the web assets and their gzip twins. */
export const IMAGE_LIMITS: UnzipLimits = { maxEntries: 2000, maxTotalBytes: 256 * 1024 * 1024, maxRatio: 50 };

export class UpdateRefused extends Error {
  constructor(
    readonly reason: UpdateRefusal,
    message: string,
    readonly params?: Record<string, string | number>,
  ) {
    super(message);
  }
}

export interface CheckedImage {
  manifest: Manifest;
  /** the release's files (manifest and signature included), verified, in memory */
  files: { path: string; data: Buffer }[];
}

export interface CheckOptions {
  trusted: readonly KeyObject[];
  /** the unit's running versions; no app version: a first install, neither older nor too old */
  running: Omit<Record<VersionKind, string>, 'app'> & { app?: string };
}

export const md5Of = (data: Uint8Array): string => createHash('md5').update(data).digest('hex');

export function checkImage(zipBytes: Uint8Array, md5Text: string, opts: CheckOptions): CheckedImage {
  const md5 = parseMd5File(md5Text);
  if (!md5) throw new UpdateRefused('md5', 'the .md5 file holds no MD5 digest');
  if (md5Of(zipBytes) !== md5) throw new UpdateRefused('md5', 'the package does not match its .md5 file');

  let entries: ReturnType<typeof readZip>;
  try {
    entries = readZip(zipBytes, IMAGE_LIMITS);
  } catch (e) {
    if (e instanceof ZipRefused) throw new UpdateRefused('archive', `unsafe archive: ${e.message}`, { problem: e.problem });
    throw e;
  }
  const read = (name: string): Buffer => {
    try {
      return entries.find((e) => e.name === name)!.read();
    } catch (e) {
      if (e instanceof ZipRefused) throw new UpdateRefused('archive', `unsafe archive: ${e.message}`, { problem: e.problem });
      throw e;
    }
  };
  const has = (name: string) => entries.some((e) => e.name === name);
  if (!has(MANIFEST_FILE) || !has(SIGNATURE_FILE)) throw new UpdateRefused('signature', 'the image carries no signed manifest');
  const manifestBytes = read(MANIFEST_FILE);
  const signature = read(SIGNATURE_FILE).toString('utf8');
  if (!signedByTrusted(manifestBytes, signature, opts.trusted)) throw new UpdateRefused('signature', 'the manifest is not signed by a trusted key');

  let manifest: Manifest;
  try {
    const parsed = v.safeParse(manifestSchema, JSON.parse(manifestBytes.toString('utf8')));
    if (!parsed.success) throw new Error(parsed.issues[0]?.message);
    manifest = parsed.output;
  } catch (e) {
    throw new UpdateRefused('content', `the manifest is not valid: ${(e as Error).message}`);
  }
  const app = opts.running.app;
  if (app !== undefined && compareVersions(manifest.version, app) < 0)
    throw new UpdateRefused('older', `the image is version ${manifest.version}, older than the running ${app}`, { version: manifest.version, running: app });
  for (const kind of ['app', 'bsp', 'hmi'] as const) {
    const installed = opts.running[kind];
    if (installed !== undefined && compareVersions(installed, manifest.min[kind]) < 0)
      throw new UpdateRefused('incompatible', `the image needs ${kind} ${manifest.min[kind]}, the unit has ${installed}`, {
        kind,
        required: manifest.min[kind],
        installed,
      });
  }

  const listed = new Map(manifest.files.map((f) => [f.path, f]));
  if (listed.size !== manifest.files.length || !listed.has(manifest.entry))
    throw new UpdateRefused('content', 'the manifest lists a file twice or not its entry');
  const files: CheckedImage['files'] = [
    { path: MANIFEST_FILE, data: manifestBytes },
    { path: SIGNATURE_FILE, data: Buffer.from(signature) },
  ];
  for (const e of entries) {
    if (e.name.endsWith('/') || e.name === MANIFEST_FILE || e.name === SIGNATURE_FILE) continue;
    const f = listed.get(e.name);
    if (!f) throw new UpdateRefused('content', `${e.name} is not in the signed manifest`, { file: e.name });
    if (f.size !== e.size) throw new UpdateRefused('content', `${e.name} differs from the signed manifest`, { file: e.name });
    const data = read(e.name);
    if (sha256(data) !== f.sha256) throw new UpdateRefused('content', `${e.name} differs from the signed manifest`, { file: e.name });
    files.push({ path: e.name, data });
    listed.delete(e.name);
  }
  const missing = [...listed.keys()];
  if (missing.length) throw new UpdateRefused('content', `the image lacks ${missing[0]}`, { file: missing[0]! });
  return { manifest, files };
}
