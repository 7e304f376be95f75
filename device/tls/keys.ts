// Certificates and keys of the TLS bridge as Node's TLS wants them (spec §3 pew_tls, §5 certificate
// names and extensions: TLS also takes .der and .cer, which may hold DER instead of PEM), and the
// minimum protocol versions of spec §3 (none, 1.1, 1.2, 1.3).
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { SecureVersion } from 'node:tls';
import type { TLS_VERSIONS } from '../model/common.ts';
import { reason, type StatusReason } from '../model/reasons.ts';
import { readCert } from '../system/cert-files.ts';

/** "none" sets no minimum beyond what the TLS library itself still accepts. */
export const MIN_VERSION: Readonly<Record<(typeof TLS_VERSIONS)[number], SecureVersion>> = {
  none: 'TLSv1',
  '1.1': 'TLSv1.1',
  '1.2': 'TLSv1.2',
  '1.3': 'TLSv1.3',
};

const isPem = (b: Buffer) => b.includes('-----BEGIN');

/** A certificate (or a PEM bundle of CAs) as PEM text. */
export function certPem(b: Buffer): string {
  return isPem(b) ? b.toString('utf8') : new X509Certificate(b).toString();
}

/** A private key as PEM text: PEM as it is, DER tried as PKCS#8, then PKCS#1 and SEC1. */
export function keyPem(b: Buffer): string {
  if (isPem(b)) return b.toString('utf8');
  for (const type of ['pkcs8', 'pkcs1', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: b, format: 'der', type }).export({ format: 'pem', type: 'pkcs8' }).toString();
    } catch {
      // not this encoding: try the next one
    }
  }
  throw new Error('the key is neither PEM nor DER');
}

/** A certificate file missing or unreadable: the English words for the log, the reason for the console. */
export class CertError extends Error {
  constructor(
    message: string,
    readonly reason: StatusReason,
  ) {
    super(message);
  }
}

/** The PEM text of a certificate file of `folder` (pew_tls_client, pew_tls_server); a missing or unreadable file is a CertError. */
export async function loadPem(dataDir: string, folder: string, name: string, kind: 'cert' | 'key'): Promise<string> {
  const b = await readCert(dataDir, folder, name);
  if (!b) throw new CertError(`The file ${name} of ${folder} is missing: upload it again`, reason('cert_missing', { name }));
  try {
    return kind === 'key' ? keyPem(b) : certPem(b);
  } catch (e) {
    const words = e instanceof Error ? e.message : String(e);
    throw new CertError(
      `The file ${name} of ${folder} is not a valid ${kind === 'key' ? 'key' : 'certificate'}: ${words}`,
      reason('cert_invalid', { name }, words),
    );
  }
}
