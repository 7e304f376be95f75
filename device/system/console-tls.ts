// The console over HTTPS (security.md TLS-2, issue 16 item 8): the key and certificate the console's
// TLS listener uses. An uploaded certificate and key (`<data>/certs/console/server.<pem|crt>` and
// `key.<pem|key>`, the upload route of the service pages) win when they form a usable pair;
// otherwise a self-signed one made at the first start: `<data>/console-tls/cert.pem` and `key.pem`,
// P-256, for the unit's host name, `<host name>.local`, localhost and its addresses. It is made
// again when those names change (a new address from DHCP), never otherwise, so that a technician
// who checked its fingerprint once can rely on it.
//
// node:crypto makes keys but no X.509 certificates, so the openssl command makes it: execFile with
// a fixed argument list and no shell (security.md INJ-1); every name put into it is checked first.
import { execFile } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { HOST_RE } from '../model/fields.ts';
import { createSecureContext } from '../net/node-tls.ts';
import { certPath } from './cert-files.ts';
import type { Logger } from './log.ts';

const run = promisify(execFile);

/** the certificate folder of uploads for the console (model/uploads.ts CERT_SECTIONS) */
export const CONSOLE_CERT_SECTION = 'console';
export const GENERATED_FOLDER = 'console-tls';
export const UPLOADED_CERT_NAMES = ['server.pem', 'server.crt'] as const;
export const UPLOADED_KEY_NAMES = ['key.pem', 'key.key'] as const;
/** spec silent: a self-signed certificate is trusted by its fingerprint, not by its age */
const DAYS = 3650;
/** how often the uploaded files are checked, as the REST server does (rest/engine.ts) */
export const CONSOLE_CERT_CHECK_MS = 2000;

export interface ConsoleCertificate {
  source: 'generated' | 'uploaded';
  /** SHA-256 of the DER certificate, as `AB:CD:…` (what browsers show) */
  fingerprint256: string;
  subject: string;
  /** e.g. `DNS:communicator, IP Address:192.168.1.10` */
  subjectAltName: string;
  validFrom: string;
  validTo: string;
  /** why an uploaded certificate is not used (it was refused), else absent */
  uploadProblem?: string;
}

export interface KeyPair {
  cert: string;
  key: string;
}

/** The names a generated certificate covers: checked host name and addresses, loopback, sorted. */
export function certificateNames(hostname: string, addresses: readonly string[]): { dns: string[]; ips: string[] } {
  const dns = new Set(['localhost']);
  if (HOST_RE.test(hostname) && isIP(hostname) === 0) {
    dns.add(hostname.toLowerCase());
    if (!hostname.includes('.')) dns.add(`${hostname.toLowerCase()}.local`);
  }
  const ips = new Set(['127.0.0.1', '::1']);
  for (const a of addresses) if (isIP(a) !== 0) ips.add(a);
  return { dns: [...dns].sort(), ips: [...ips].sort() };
}

/** Makes a self-signed P-256 certificate for these names in `dir` (cert.pem, key.pem; key 0600). */
export async function generateCertificate(dir: string, names: { dns: string[]; ips: string[] }): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmpKey = join(dir, 'key.pem.tmp');
  const tmpCert = join(dir, 'cert.pem.tmp');
  const san = [...names.dns.map((n) => `DNS:${n}`), ...names.ips.map((ip) => `IP:${ip}`)].join(',');
  const cn = names.dns.find((n) => n !== 'localhost') ?? 'localhost';
  await run(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-days',
      String(DAYS),
      '-subj',
      `/CN=${cn}`,
      '-addext',
      `subjectAltName=${san}`,
      '-addext',
      'basicConstraints=critical,CA:FALSE',
      '-addext',
      'keyUsage=critical,digitalSignature',
      '-addext',
      'extendedKeyUsage=serverAuth',
      '-keyout',
      tmpKey,
      '-out',
      tmpCert,
    ],
    { timeout: 30_000 },
  );
  await chmod(tmpKey, 0o600);
  await rename(tmpKey, join(dir, 'key.pem'));
  await rename(tmpCert, join(dir, 'cert.pem'));
  await writeFile(join(dir, 'names.json'), JSON.stringify(names));
}

/** The pair as PEM texts when it is usable by a TLS server (the key fits the certificate), else why not. */
function usable(certBytes: Buffer, keyBytes: Buffer): KeyPair | string {
  try {
    const cert = new X509Certificate(certBytes).toString(); // PEM, also from a DER upload
    // PEM or DER (PKCS#8) as uploaded; the TLS server takes PEM
    const keyObj = keyBytes.includes('-----BEGIN') ? createPrivateKey(keyBytes) : createPrivateKey({ key: keyBytes, format: 'der', type: 'pkcs8' });
    const key = keyObj.export({ format: 'pem', type: 'pkcs8' }).toString();
    createSecureContext({ cert, key }); // throws when the key does not belong to the certificate
    return { cert, key };
  } catch (e) {
    return (e as Error).message;
  }
}

function describe(pair: KeyPair, source: ConsoleCertificate['source']): ConsoleCertificate {
  const x = new X509Certificate(pair.cert);
  return { source, fingerprint256: x.fingerprint256, subject: x.subject, subjectAltName: x.subjectAltName ?? '', validFrom: x.validFrom, validTo: x.validTo };
}

const readIf = (file: string) => readFile(file).catch(() => undefined);

async function firstOf(dataDir: string, names: readonly string[]): Promise<Buffer | undefined> {
  for (const n of names) {
    const b = await readIf(certPath(dataDir, CONSOLE_CERT_SECTION, n));
    if (b) return b;
  }
  return undefined;
}

/** A stamp of the uploaded files (names, sizes, times) to notice an upload or a removal. */
async function uploadStamp(dataDir: string): Promise<string> {
  const parts = await Promise.all(
    [...UPLOADED_CERT_NAMES, ...UPLOADED_KEY_NAMES].map(async (n) => {
      const s = await stat(certPath(dataDir, CONSOLE_CERT_SECTION, n)).catch(() => undefined);
      return s ? `${n}:${s.size}:${s.mtimeMs}` : '';
    }),
  );
  return parts.join('|');
}

export interface ConsoleTlsDeps {
  dataDir: string;
  hostname: string;
  /** the unit's addresses (IPv4 of its interfaces, the listen address when it is one) */
  addresses: readonly string[];
  log: Logger;
}

export interface ConsoleTls {
  /** the pair in use */
  pair(): KeyPair;
  certificate(): ConsoleCertificate;
  /** calls `fn` with the new pair whenever an upload or a removal changes it */
  watch(fn: (pair: KeyPair) => void): void;
  close(): void;
}

/** The generated pair, made now when it is missing, unusable or made for other names. */
async function generatedPair(deps: ConsoleTlsDeps): Promise<KeyPair> {
  const dir = join(deps.dataDir, GENERATED_FOLDER);
  const names = certificateNames(deps.hostname, deps.addresses);
  const [cert, key, made] = await Promise.all([readIf(join(dir, 'cert.pem')), readIf(join(dir, 'key.pem')), readIf(join(dir, 'names.json'))]);
  if (cert && key && made?.toString() === JSON.stringify(names)) {
    const pair = usable(cert, key);
    if (typeof pair !== 'string') return pair;
    deps.log.error('console certificate unusable: making a new one', { error: pair });
  }
  await rm(join(dir, 'names.json'), { force: true });
  await generateCertificate(dir, names);
  deps.log.info('console certificate made', { names: [...names.dns, ...names.ips] });
  const pair = usable(await readFile(join(dir, 'cert.pem')), await readFile(join(dir, 'key.pem')));
  if (typeof pair === 'string') throw new Error(`the console certificate made by openssl is not usable: ${pair}`);
  return pair;
}

export async function openConsoleTls(deps: ConsoleTlsDeps): Promise<ConsoleTls> {
  const generated = await generatedPair(deps);
  let current: KeyPair = generated;
  let info: ConsoleCertificate = describe(generated, 'generated');
  let stamp = '';
  const watchers: ((pair: KeyPair) => void)[] = [];

  /** the uploaded pair when there is a usable one, else the generated one */
  const choose = async (): Promise<void> => {
    stamp = await uploadStamp(deps.dataDir);
    const [cert, key] = await Promise.all([firstOf(deps.dataDir, UPLOADED_CERT_NAMES), firstOf(deps.dataDir, UPLOADED_KEY_NAMES)]);
    let next: KeyPair = generated;
    let nextInfo = describe(generated, 'generated');
    if (cert && key) {
      const pair = usable(cert, key);
      if (typeof pair === 'string') {
        nextInfo = { ...nextInfo, uploadProblem: pair };
        deps.log.error('uploaded console certificate not usable: the generated one stays', { error: pair });
      } else {
        next = pair;
        nextInfo = describe(pair, 'uploaded');
      }
    }
    const changed = next.cert !== current.cert || next.key !== current.key;
    current = next;
    info = nextInfo;
    if (changed) {
      deps.log.info('console certificate in use', { source: info.source, fingerprint256: info.fingerprint256 });
      for (const fn of watchers) fn(current);
    }
  };
  await choose();

  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void uploadStamp(deps.dataDir)
      .then(async (now) => {
        if (now !== stamp) await choose();
      })
      .catch((e: unknown) => deps.log.error('console certificate check failed', { error: String(e) }))
      .finally(() => {
        checking = false;
      });
  }, CONSOLE_CERT_CHECK_MS);
  timer.unref();

  return {
    pair: () => current,
    certificate: () => ({ ...info }),
    watch: (fn) => {
      watchers.push(fn);
    },
    close: () => clearInterval(timer),
  };
}
