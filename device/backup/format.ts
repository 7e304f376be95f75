// The .i4csettings container (spec §5 backup extension and password rules; security.md BK-1):
//
//   magic "I4CSETT\n" (8 bytes) | header length (u32 big endian) | header (JSON, UTF-8) | body
//
// The header names the product, the format version, the app version, the creation time, the unit
// and the protection. The body is the gzip-compressed content (device/backup/content.ts):
// - with a password: AES-256-GCM ciphertext followed by its 16-byte tag; the key comes from scrypt
//   (salt 16 bytes, parameters in the header), the IV is 12 random bytes, and the magic, length
//   and header are the additional authenticated data, so no header byte can be changed either;
// - without one: the plain compressed content followed by SHA-256 over everything before it. That
//   finds corruption, not forgery, which is why such a backup carries no secrets (content.ts).
// Everything here is checked before any content is looked at: format, product, version, integrity.

import { createCipheriv, createDecipheriv, createHash, randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import type { RefusalReason } from '../model/backup.ts';
import { inHashSlot } from '../system/hash-queue.ts';

export const MAGIC = Buffer.from('I4CSETT\n', 'latin1');
export const PRODUCT = 'i4c-communicator';
/** the format this daemon writes; older ones are migrated (device/backup/migrate.ts) */
export const FORMAT_VERSION = 2;
const HEADER_MAX = 4096;
const SALT = 16;
const IV = 12;
const TAG = 16;
const SUM = 32;
// scrypt cost written into every file this unit makes (and ever made); a file naming any other is
// refused before a key is derived: a crafted header must not make the unit spend seconds and
// hundreds of MiB per restore attempt (issue 16: N=2^17, r=16, p=4 took 5.5 s and +256 MiB)
export const KDF = { N: 1 << 15, r: 8, p: 1 } as const;

export interface BackupHeader {
  product: string;
  format: number;
  app: string;
  created: string;
  hostname: string;
  protection: 'aes-256-gcm' | 'sha256';
  /** `check`: SHA-256 of the second half of the scrypt output, so that a wrong password is told apart from a damaged file */
  kdf?: { name: 'scrypt'; N: number; r: number; p: number; salt: string; check: string };
  iv?: string;
}

/** Why a file is refused; the reason goes to the console with "Failed to restore the settings". */
export class BackupRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** 64 bytes of scrypt: the AES key and a password check value. */
async function deriveKeys(password: string, salt: Buffer, kdf: { N: number; r: number; p: number }): Promise<{ key: Buffer; check: Buffer }> {
  const opts: ScryptOptions = { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r + 1024 * 1024 };
  // in a hash slot, like the login checks: the thread pool stays free for the logger's writes
  const out = await inHashSlot(
    () => new Promise<Buffer>((resolve, reject) => scryptCb(password.normalize('NFC'), salt, 64, opts, (e, k) => (e ? reject(e) : resolve(k)))),
  );
  return { key: out.subarray(0, 32), check: createHash('sha256').update(out.subarray(32)).digest() };
}

const prefixOf = (headerBytes: Buffer) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(headerBytes.length);
  return Buffer.concat([MAGIC, len, headerBytes]);
};

/** Seals `content` under a header; with a password it is encrypted, else checksummed. */
export async function sealBackup(base: Omit<BackupHeader, 'protection' | 'kdf' | 'iv'>, content: Buffer, password?: string): Promise<Buffer> {
  if (password === undefined) {
    const prefix = prefixOf(Buffer.from(JSON.stringify({ ...base, protection: 'sha256' } satisfies BackupHeader)));
    const body = Buffer.concat([prefix, content]);
    return Buffer.concat([body, createHash('sha256').update(body).digest()]);
  }
  const salt = randomBytes(SALT);
  const iv = randomBytes(IV);
  const { key, check } = await deriveKeys(password, salt, KDF);
  const kdf = { name: 'scrypt' as const, ...KDF, salt: salt.toString('base64'), check: check.toString('base64') };
  const header: BackupHeader = { ...base, protection: 'aes-256-gcm', kdf, iv: iv.toString('base64') };
  const prefix = prefixOf(Buffer.from(JSON.stringify(header)));
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG });
  cipher.setAAD(prefix);
  return Buffer.concat([prefix, cipher.update(content), cipher.final(), cipher.getAuthTag()]);
}

const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
const b64 = (s: unknown, bytes: number): Buffer | undefined => {
  if (typeof s !== 'string') return undefined;
  const b = Buffer.from(s, 'base64');
  return b.length === bytes && b.toString('base64') === s ? b : undefined;
};

/** Reads and checks the header only: magic, size, product and version (no secret needed). */
export function readHeader(file: Buffer): { header: BackupHeader; prefix: Buffer } {
  if (file.length < MAGIC.length + 4 || !file.subarray(0, MAGIC.length).equals(MAGIC))
    throw new BackupRefused('not_a_backup', 'This is not a settings backup file');
  const len = file.readUInt32BE(MAGIC.length);
  const end = MAGIC.length + 4 + len;
  if (len > HEADER_MAX || end > file.length) throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
  let h: BackupHeader;
  try {
    h = JSON.parse(file.subarray(MAGIC.length + 4, end).toString('utf8')) as BackupHeader;
  } catch {
    throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
  }
  if (typeof h !== 'object' || h === null) throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
  if (h.product !== PRODUCT) throw new BackupRefused('other_product', 'The backup file belongs to another product');
  if (!isInt(h.format) || h.format < 1) throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
  if (h.format > FORMAT_VERSION) throw new BackupRefused('newer_version', `The backup file was made by a newer version (format ${h.format})`);
  return { header: h, prefix: file.subarray(0, end) };
}

/** The content of a checked file: header first, then integrity (checksum or GCM tag). */
export async function openBackup(file: Buffer, password?: string): Promise<{ header: BackupHeader; content: Buffer }> {
  const { header, prefix } = readHeader(file);
  const rest = file.subarray(prefix.length);
  if (header.protection === 'sha256') {
    if (rest.length < SUM) throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
    const body = file.subarray(0, file.length - SUM);
    const sum = createHash('sha256').update(body).digest();
    if (!timingSafeEqual(sum, file.subarray(file.length - SUM))) throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
    return { header, content: rest.subarray(0, rest.length - SUM) };
  }
  if (header.protection !== 'aes-256-gcm') throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
  const k = header.kdf;
  const salt = b64(k?.salt, SALT);
  const iv = b64(header.iv, IV);
  const expected = b64(k?.check, SUM);
  if (k?.name !== 'scrypt' || !salt || !iv || !expected || k.N !== KDF.N || k.r !== KDF.r || k.p !== KDF.p || rest.length < TAG)
    throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
  if (!password) throw new BackupRefused('password_required', 'The backup file is protected by a password');
  const { key, check } = await deriveKeys(password, salt, k);
  if (!timingSafeEqual(check, expected)) throw new BackupRefused('wrong_password', 'The password is not correct');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG });
  decipher.setAAD(prefix);
  decipher.setAuthTag(rest.subarray(rest.length - TAG));
  try {
    return { header, content: Buffer.concat([decipher.update(rest.subarray(0, rest.length - TAG)), decipher.final()]) };
  } catch {
    // the password was right (check value): a changed byte anywhere, header included, fails the tag
    throw new BackupRefused('damaged', 'The backup file is truncated or damaged');
  }
}
