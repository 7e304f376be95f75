// Where the uploaded certificates and keys of a section live (spec §5 certificate names ca, client,
// server, key): `<dataDir>/certs/<section>/<name>`, the name as the section's certificate field
// holds it (e.g. `ca.pem`). The services read them from here; uploads write them here. The folder
// is the section key (`pew_mqtt`, `pew_ftpc` …), except for pew_tls, whose two parts each have a
// ca, a certificate and a key of their own: `pew_tls_client` and `pew_tls_server`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const CERT_FOLDER = 'certs';

/** The file of a certificate of a section; the name must already be a valid certificate name. */
export function certPath(dataDir: string, section: string, name: string): string {
  if (!/^[a-z0-9_]+$/.test(section) || !/^(ca|client|server|key)\.[a-z]{3}$/.test(name)) throw new RangeError(`not a certificate: ${section}/${name}`);
  return join(dataDir, CERT_FOLDER, section, name);
}

/** The bytes of a certificate, or undefined when the field is empty or the file is missing. */
export async function readCert(dataDir: string, section: string, name: string): Promise<Buffer | undefined> {
  if (name === '') return undefined;
  try {
    return await readFile(certPath(dataDir, section, name));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}
