// Checking and describing certificate files (spec §5 certificate names and extensions, §8 "Failed
// to upload file(s)"): certificates are X.509 in PEM (one or several blocks: a chain or a CA
// bundle) or DER, parsed by node's crypto.X509Certificate; keys are unencrypted private keys (PEM
// or DER) that crypto.createPrivateKey accepts, since no service has a passphrase field. A `.csr`
// holds a PEM certificate request, which node cannot parse: its DER structure is checked instead.
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { CertKind } from '../model/common.ts';
import type { CertInfo } from '../model/uploads.ts';

export class CertRefused extends Error {
  constructor(
    readonly code: 'invalid_certificate' | 'invalid_key',
    why: string,
  ) {
    super(why);
  }
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----\r?\n([A-Za-z0-9+/=\r\n]+?)-----END \1-----/g;

interface PemBlock {
  label: string;
  der: Buffer;
}

function pemBlocks(text: string): PemBlock[] {
  return [...text.matchAll(PEM_BLOCK)].map((m) => ({ label: m[1]!, der: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') }));
}

/** The file looks like PEM text (only ASCII, a BEGIN line): else it is read as DER. */
const isPem = (bytes: Buffer): boolean => bytes.includes('-----BEGIN ') && !bytes.some((b) => b > 0x7e || (b < 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09));

/** Length of a DER TLV starting at `at` (tag, length, content), or -1 when it does not fit. */
function derLength(der: Buffer, at = 0): number {
  if (der.length < at + 2) return -1;
  const first = der[at + 1]!;
  if (first < 0x80) return 2 + first;
  const n = first & 0x7f;
  if (n === 0 || n > 4 || der.length < at + 2 + n) return -1;
  let len = 0;
  for (let i = 0; i < n; i++) len = len * 256 + der[at + 2 + i]!;
  return 2 + n + len;
}

/** A DER SEQUENCE that is exactly the buffer (what a certificate request is). */
const isDerSequence = (der: Buffer): boolean => der.length > 2 && der[0] === 0x30 && derLength(der) === der.length;

function parseCerts(bytes: Buffer): X509Certificate[] {
  if (!isPem(bytes)) return [new X509Certificate(bytes)];
  const blocks = pemBlocks(bytes.toString('latin1'));
  // a PEM file holding other blocks (a key, a request) besides certificates is no certificate file
  if (blocks.length === 0 || blocks.some((b) => b.label !== 'CERTIFICATE' && b.label !== 'TRUSTED CERTIFICATE')) throw new Error('no certificate block');
  return blocks.map((b) => new X509Certificate(b.der));
}

function parseKey(bytes: Buffer): KeyObject {
  if (isPem(bytes)) {
    const labels = pemBlocks(bytes.toString('latin1')).map((b) => b.label);
    if (labels.includes('ENCRYPTED PRIVATE KEY') || bytes.includes('Proc-Type: 4,ENCRYPTED')) throw new Error('encrypted key');
    if (labels.length !== 1 || !labels[0]!.endsWith('PRIVATE KEY')) throw new Error('no private key block');
    return createPrivateKey({ key: bytes, format: 'pem' });
  }
  for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: bytes, format: 'der', type });
    } catch {
      // the next encoding
    }
  }
  throw new Error('not a DER private key');
}

const iso = (date: string): string => new Date(date).toISOString();
/** `CN=x\nO=y` as node writes a name → `CN=x, O=y` */
const oneLine = (name: string): string => name.split('\n').filter(Boolean).join(', ');

/**
 * What a certificate file of `kind` holds; throws CertRefused when it is not one (a key uploaded as
 * a certificate, a certificate as a key, garbage, an encrypted key). `now` decides `expired`.
 */
export function describeCert(kind: CertKind, ext: string, bytes: Buffer, now: number): Omit<CertInfo, 'section' | 'name'> {
  const size = bytes.length;
  if (kind === 'key') {
    let key: KeyObject;
    try {
      key = parseKey(bytes);
    } catch (e) {
      throw new CertRefused('invalid_key', e instanceof Error ? e.message : String(e));
    }
    return { size, type: 'key', ...(key.asymmetricKeyType ? { keyType: key.asymmetricKeyType } : {}) };
  }
  if (ext === 'csr' && isPem(bytes)) {
    const blocks = pemBlocks(bytes.toString('latin1'));
    if (blocks.length === 1 && /^(NEW )?CERTIFICATE REQUEST$/.test(blocks[0]!.label) && isDerSequence(blocks[0]!.der)) return { size, type: 'request' };
  }
  let certs: X509Certificate[];
  try {
    certs = parseCerts(bytes);
  } catch (e) {
    throw new CertRefused('invalid_certificate', e instanceof Error ? e.message : String(e));
  }
  const first = certs[0]!;
  const validTo = iso(first.validTo);
  return {
    size,
    type: 'certificate',
    subject: oneLine(first.subject),
    issuer: oneLine(first.issuer),
    validFrom: iso(first.validFrom),
    validTo,
    expired: Date.parse(validTo) < now,
    count: certs.length,
  };
}
