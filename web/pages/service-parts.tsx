// Parts shared by the client service pages (spec §2 service layout): the certificates group (the
// names of the section's ca, client and key files and their upload, §5 names and extensions), the
// security hint of spec §5 ("no encryption", "SMTP without SSL/TLS") and the rule that
// a field may only be hidden while it is valid.
import { certExtensions } from '../../device/model/common.ts';
import type { CertSection } from '../../device/model/uploads.ts';
import { type SecurityWarning, type SecurityWarningCode, securityWarnings } from '../../device/model/warnings.ts';
import { Certificates } from '../forms/certificates.tsx';
import { Field, FieldGroup, problemAt } from '../forms/field.tsx';
import { LL } from '../i18n/translate.ts';
import { pageOfSection } from '../pages.ts';
import { section } from '../state/sections.ts';

/** Style of a block that spans the whole width of a group's grid (the connection test). */
export const WIDE = { gridColumn: '1 / -1' };

/** Whether a field that only applies when `applies` is shown: always while it has a problem. */
export const shown = (key: string, path: string, applies: boolean): boolean => applies || problemAt(key, path) !== undefined;

/** The certificate names of a client section (ca, client, key) with the allowed extensions, and their upload. */
export function CertificateGroup({ section: key, id }: { section: CertSection; id: string }) {
  const t = LL.value.service;
  return (
    <FieldGroup title={t.certificates()} id={id}>
      <p class="hint">
        {t.certNote({
          ext: certExtensions('ca', false)
            .map((e) => `.${e}`)
            .join(' '),
        })}
      </p>
      <Field section={key} path="ca" />
      <Field section={key} path="client" />
      <Field section={key} path="key" />
      <Certificates section={key} kinds={['ca', 'client', 'key']} tls={false} />
    </FieldGroup>
  );
}

type WarningText = (p: { subjects: string }) => string;

/**
 * The spec §5 security warnings that the edited settings of `key` raise, with the same rule and
 * wording as the system information page (device/model/warnings.ts), shown while editing. Only
 * the section's own settings are looked at, so an open TCP port is one this section listens on and
 * frequent writes are this logger's files. `codes` limits which warnings the page shows (a page
 * that shows one in its own words leaves it out).
 */
export function SecurityHint({ section: key, codes }: { section: string; codes?: readonly SecurityWarningCode[] }) {
  const temp = section(key).temp.value;
  const found = securityWarnings({ [key]: temp }, []).filter(
    (w) =>
      (codes ? codes.includes(w.code) : w.code !== 'open_tcp_port') && (w.code === 'open_tcp_port' || w.code === 'frequent_writes' || w.subjects.includes(key)),
  );
  if (found.length === 0) return null;
  const texts = LL.value.info.warning as unknown as Record<string, WarningText>;
  const page = pageOfSection(key);
  const name = page ? LL.value.nav[page.id]() : key;
  // ports and log file numbers are named as they are; the other warnings name this page's service
  const subjects = (w: SecurityWarning) => (w.code === 'open_tcp_port' || w.code === 'frequent_writes' ? w.subjects.join(', ') : name);
  return (
    <>
      {found.map((w) => (
        <p key={w.code} class="banner warning" data-security={w.code}>
          {texts[w.code]!({ subjects: subjects(w) })}
        </p>
      ))}
    </>
  );
}
