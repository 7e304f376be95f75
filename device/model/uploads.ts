// What may be uploaded, under which name and up to which size (spec §5 certificate names and
// extensions, file names, script extension .cfg; §7 upload; security.md VAL-1 "uploads capped per
// kind while streaming"). Pure: the console checks a chosen file with the same rules before it
// sends it, and the daemon checks the request's query with them.
import * as v from 'valibot';
import { CERT_KINDS, type CertKind, certExtensions, certNameProblem } from './common.ts';
import { FILE_NAME_RE } from './fields.ts';
import { type FileNameProblem, fileNameCheck, fileNameProblem } from './file-names.ts';
import { msg } from './issues.ts';
import { HTTP_FILE_RE, HTTP_NAME_MAX } from './sections/httpfiles.ts';
import { SCRIPT_EXTENSION } from './sections/script.ts';
import { SCRIPT_MAX } from './sections/scriptfile.ts';

/**
 * The certificate folders (device/system/cert-files.ts) and the certificate kinds each uses. pew_tls
 * has two parts with certificates of their own; the REST server (pew_api, use_encryption) shows a
 * server certificate; the clients show their client certificate; `console` holds a certificate and
 * key uploaded for the console's HTTPS in place of the generated one (security.md TLS-2).
 */
export const CERT_SECTIONS = {
  pew_mqtt: ['ca', 'client', 'key'],
  pew_ftpc: ['ca', 'client', 'key'],
  pew_httpc: ['ca', 'client', 'key'],
  pew_email: ['ca', 'client', 'key'],
  pew_sql: ['ca', 'client', 'key'],
  pew_nosql: ['ca', 'client', 'key'],
  pew_api: ['ca', 'server', 'key'],
  pew_tls_client: ['ca', 'client', 'key'],
  pew_tls_server: ['ca', 'server', 'key'],
  console: ['server', 'key'], // the console's own HTTPS certificate (device/system/console-tls.ts)
} as const satisfies Record<string, readonly CertKind[]>;
export type CertSection = keyof typeof CERT_SECTIONS;
export const CERT_SECTION_KEYS = Object.keys(CERT_SECTIONS) as CertSection[];

/** spec §5: "TLS also .der and .cer": the two parts of the TLS bridge */
export const isTlsSection = (section: CertSection): boolean => section === 'pew_tls_client' || section === 'pew_tls_server';

/** Every file name a section's certificates may have, e.g. `ca.pem`, `key.key`. */
export function certNames(section: CertSection): string[] {
  const tls = isTlsSection(section);
  return CERT_SECTIONS[section].flatMap((kind) => certExtensions(kind, tls).map((ext) => `${kind}.${ext}`));
}

/** The kind of a certificate file name (`ca.pem` → `ca`), or undefined when the name is none. */
export function certKindOf(name: string): CertKind | undefined {
  const kind = name.slice(0, name.indexOf('.'));
  return (CERT_KINDS as readonly string[]).includes(kind) ? (kind as CertKind) : undefined;
}

// Caps while streaming (spec silent, security.md VAL-1). A PEM chain of a few certificates is far
// below 64 KiB. A script must fit its section (script_file content, SCRIPT_MAX); counted in bytes,
// the section's own check then counts characters. Files of the REST HTTP server are web pages,
// scripts and images of a small unit's storage.
export const UPLOAD_KINDS = ['cert', 'webfile', 'script'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];
export const UPLOAD_MAX: Record<UploadKind, number> = {
  cert: 64 * 1024,
  webfile: 4 * 1024 * 1024,
  script: SCRIPT_MAX,
};
/** spec §9: file name 30 (the script_file field holds it) */
export const SCRIPT_NAME_MAX = 30;

/** A required file name; `problemOf` says what is wrong with it (its length included). */
const nameField = (problemOf: (s: string) => FileNameProblem | undefined) =>
  v.pipe(v.string(msg('required')), v.nonEmpty(msg('required')), fileNameCheck(problemOf));

/** The certificate name must be one of its section's kinds with that kind's extensions. */
const certNameOfSection = <T extends { section: CertSection; name: string }>() =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const { section, name } = dataset.value;
    const p = certNameProblem(name, CERT_SECTIONS[section], isTlsSection(section));
    if (p) addIssue({ message: msg(p.code, p.params), path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'name', value: name }] });
  });

export const certUploadQuery = v.pipe(
  v.strictObject(
    {
      kind: v.literal('cert', msg('invalid_value', { allowed: [...UPLOAD_KINDS] })),
      section: v.picklist(CERT_SECTION_KEYS, msg('invalid_value', { allowed: CERT_SECTION_KEYS })),
      name: nameField((s) => fileNameProblem(s, { max: 16 })),
    },
    msg('type', { expected: 'object' }),
  ),
  certNameOfSection(),
);

export const webfileUploadQuery = v.strictObject(
  {
    kind: v.literal('webfile', msg('invalid_value', { allowed: [...UPLOAD_KINDS] })),
    name: nameField((s) => fileNameProblem(s, { max: HTTP_NAME_MAX, chars: HTTP_FILE_RE })),
  },
  msg('type', { expected: 'object' }),
);

/** spec §5: script files are `.cfg` with a file name of letters, digits, underscore and dot; §9: 30 characters */
export const scriptNameProblem = (s: string): FileNameProblem | undefined =>
  fileNameProblem(s, { max: SCRIPT_NAME_MAX, extensions: [SCRIPT_EXTENSION.slice(1)], chars: FILE_NAME_RE });
export const isScriptName = (s: string): boolean => scriptNameProblem(s) === undefined;

export const scriptUploadQuery = v.strictObject(
  {
    kind: v.literal('script', msg('invalid_value', { allowed: [...UPLOAD_KINDS] })),
    name: nameField(scriptNameProblem),
  },
  msg('type', { expected: 'object' }),
);

/** The query of `POST /config/upload`: which kind, and its target. */
export const uploadQuery = v.variant('kind', [certUploadQuery, webfileUploadQuery, scriptUploadQuery], msg('invalid_value', { allowed: [...UPLOAD_KINDS] }));
export type UploadQuery = v.InferOutput<typeof uploadQuery>;

/** `POST /config/delete_cert` */
export const deleteCertRequest = v.pipe(
  v.strictObject(
    {
      section: v.picklist(CERT_SECTION_KEYS, msg('invalid_value', { allowed: CERT_SECTION_KEYS })),
      name: nameField((s) => fileNameProblem(s, { max: 16 })),
    },
    msg('type', { expected: 'object' }),
  ),
  certNameOfSection(),
);

/** One stored certificate or key as `GET /config/get_certs` lists it (never the key's content). */
export interface CertInfo {
  section: CertSection;
  name: string;
  size: number;
  /** invalid: a file in the folder that is none (not put there by an upload) */
  type: 'certificate' | 'request' | 'key' | 'invalid';
  /** certificates: the first one of the file (a chain lists the count) */
  subject?: string;
  issuer?: string;
  /** ISO 8601 */
  validFrom?: string;
  validTo?: string;
  expired?: boolean;
  /** certificates in the file (a CA bundle or a chain holds several) */
  count?: number;
  /** keys: rsa, ec, ed25519 … */
  keyType?: string;
}
