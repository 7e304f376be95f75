// Field shapes shared by several service sections (spec §5, §9).
import * as v from 'valibot';
import { HOST_RE, int, text } from './fields.ts';
import { type FileNameProblem, fileNameCheck, fileNameProblem, splitFileName } from './file-names.ts';
import { ipToNumber, isAllAddresses } from './ip.ts';
import { type Issue, issue, msg } from './issues.ts';
import { DT_MAX } from './plc.ts';

// spec §3: TLS minimum versions none, 1.1, 1.2, 1.3 (1.2 or 1.3 proposed for new setups)
export const TLS_VERSIONS = ['none', '1.1', '1.2', '1.3'] as const;

/**
 * First DT register of a service's control block; the block of `length` registers must fit the
 * DT area (spec §9 control register offsets and defaults).
 */
export const controlRegister = (def: number, length: number) => {
  const max = DT_MAX - length + 1;
  return v.optional(
    v.pipe(
      v.number(msg('type', { expected: 'number' })),
      v.integer(msg('not_integer')),
      v.check((n: number) => n >= 0 && n <= max, msg('address_out_of_range', { min: 0, max })),
    ),
    def,
  );
};

/** A DT register address (spec §9: DT 0-999424). */
export const dtAddress = (def: number) => int(0, DT_MAX, def);

/** `host`, `host:port` or `scheme://host[:port]` with one of `schemes`; empty allowed (required-ness is a rule). */
export const hostUrl = (schemes: readonly string[], max = 253) => {
  const re = new RegExp(`^(?:(?:${schemes.join('|')})://)?([^:/\\s]+)(?::(\\d{1,5}))?/?$`);
  return text(
    max,
    '',
    v.check((s: string) => {
      if (s === '') return true;
      const m = re.exec(s);
      if (!m || !HOST_RE.test(m[1]!)) return false;
      return m[2] === undefined || (Number(m[2]) >= 1 && Number(m[2]) <= 65535);
    }, msg('invalid_host')),
  );
};

/** `scheme://host[:port][/path]` for HTTP peers; empty allowed. */
export const httpUrl = (max = 253) =>
  text(
    max,
    '',
    v.check((s: string) => {
      if (s === '') return true;
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && HOST_RE.test(u.hostname.replace(/^\[|\]$/g, '')) && !u.username && !u.password;
      } catch {
        return false;
      }
    }, msg('invalid_host')),
  );

// spec §5: certificate file names ca, client, server, key; extensions: general .crt .csr .pem;
// TLS also .der and .cer; key .key and .pem
export const CERT_KINDS = ['ca', 'client', 'server', 'key'] as const;
export type CertKind = (typeof CERT_KINDS)[number];
export function certExtensions(kind: CertKind, tls: boolean): string[] {
  if (kind === 'key') return ['key', 'pem'];
  return tls ? ['crt', 'csr', 'pem', 'der', 'cer'] : ['crt', 'csr', 'pem'];
}
/** What is wrong with a certificate file name among `kinds` (`foo.pem`: the name; `key.crt`: the extension). */
export function certNameProblem(name: string, kinds: readonly CertKind[], tls: boolean): FileNameProblem | undefined {
  const base = splitFileName(name)[0];
  if (!(kinds as readonly string[]).includes(base)) return { code: 'file_base_name', params: { allowed: kinds } };
  return fileNameProblem(name, { extensions: certExtensions(base as CertKind, tls) });
}
/** The stored name of an uploaded certificate (e.g. `ca.pem`), or empty when none is used. */
export const certName = (kind: CertKind, tls = false) =>
  text(
    16,
    '',
    fileNameCheck((s) => certNameProblem(s, [kind], tls)),
  );

/**
 * An allowed-client range `start..end` (spec §5): both given when `needed` ('required'), and the
 * end not below the start unless the pair is the all-addresses form ('ip_range', on the end).
 */
export function ipRangeIssues(start: string, end: string, startPath: string, endPath: string, needed: boolean): Issue[] {
  const out: Issue[] = [];
  if (needed && start === '') out.push(issue(startPath, 'required'));
  if (needed && end === '') out.push(issue(endPath, 'required'));
  if (start !== '' && end !== '' && !isAllAddresses(start, end) && ipToNumber(end) < ipToNumber(start)) out.push(issue(endPath, 'ip_range'));
  return out;
}
