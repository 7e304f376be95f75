// The signed manifest of a device image (security.md FW-1; spec §5 version compatibility):
// `manifest.json` names the version, the minimum app/BSP/HMI versions the unit must have, the
// daemon's entry file and the size and SHA-256 of every other file of the image; `manifest.sig` is
// the Ed25519 signature (node:crypto, base64) over the exact bytes of manifest.json. Shared by the
// image build (build/image.ts) and the daemon's check (device/firmware/verify.ts). Keys are PEM:
// PKCS#8 private keys to sign, SPKI public keys to verify.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as v from 'valibot';
import { writeFileAtomic } from '../../hw/atomic-file.ts';

export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.sig';
export const MANIFEST_FORMAT = 1;

const VERSION_RE = /^\d+(\.\d+){1,3}$/;
const version = v.pipe(v.string(), v.regex(VERSION_RE));
const SHA256_RE = /^[0-9a-f]{64}$/;

export const manifestSchema = v.strictObject({
  format: v.literal(MANIFEST_FORMAT),
  product: v.literal('communicator'),
  version,
  /** which daemon entry the image carries: the simulator or the unit */
  variant: v.picklist(['sim', 'unit']),
  built: v.string(),
  min: v.strictObject({ app: version, bsp: version, hmi: version }),
  /** the daemon's one file, relative to the release folder */
  entry: v.string(),
  files: v.array(v.strictObject({ path: v.string(), size: v.pipe(v.number(), v.integer(), v.minValue(0)), sha256: v.pipe(v.string(), v.regex(SHA256_RE)) })),
});
export type Manifest = v.InferOutput<typeof manifestSchema>;

export const isVersion = (s: string): boolean => VERSION_RE.test(s);
export const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

/** Signs the manifest's bytes; returns the content of manifest.sig. */
export function signManifest(manifestBytes: Uint8Array, privateKeyPem: string): string {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error('the signing key is not an Ed25519 key');
  return `${sign(null, manifestBytes, key).toString('base64')}\n`;
}

/** True when one of the trusted keys made `signature` over `manifestBytes`. */
export function signedByTrusted(manifestBytes: Uint8Array, signature: string, trusted: readonly KeyObject[]): boolean {
  const sig = Buffer.from(signature.trim(), 'base64');
  if (sig.length !== 64) return false;
  return trusted.some((k) => verify(null, manifestBytes, k, sig));
}

/** A new Ed25519 key pair as PEM. */
export function newKeyPair(): { privatePem: string; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

export const publicPemOf = (privatePem: string): string => createPublicKey(createPrivateKey(privatePem)).export({ type: 'spki', format: 'pem' }).toString();

/** The simulator's development key inside its data folder, and the folder of keys it trusts. */
export const devKeyFile = (dataDir: string): string => join(dataDir, 'firmware', 'dev-signing-key.pem');
export const trustDirOf = (dataDir: string): string => join(dataDir, 'firmware', 'trusted');

/**
 * The simulator's development key: made on first use (mode 0600, never part of the repository:
 * data folders are ignored by git) and its public half put into the folder of trusted keys.
 */
export async function ensureDevKey(dataDir: string): Promise<string> {
  const file = devKeyFile(dataDir);
  let pem = await readFile(file, 'utf8').catch(() => undefined);
  if (!pem) {
    pem = newKeyPair().privatePem;
    await writeFileAtomic(file, pem);
  }
  await trustPublicKey(trustDirOf(dataDir), 'development.pem', publicPemOf(pem));
  return pem;
}

/** Puts a public key into a folder of trusted keys (unless a file of that name is there). */
export async function trustPublicKey(dir: string, name: string, publicPem: string): Promise<void> {
  const file = join(dir, name);
  if (await stat(file).catch(() => undefined)) return;
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(file, publicPem);
}

/** Every Ed25519 public key (`*.pem`) in `dir`; an unreadable or other key is skipped. */
export async function loadTrustedKeys(dir: string): Promise<KeyObject[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.pem')).sort();
  const keys: KeyObject[] = [];
  for (const n of names) {
    try {
      const k = createPublicKey(await readFile(join(dir, n), 'utf8'));
      if (k.asymmetricKeyType === 'ed25519') keys.push(k);
    } catch {
      // not a public key: it trusts nothing
    }
  }
  return keys;
}
