// The certificates of a service page (spec §2 shared layout "certificates", §5 certificate names
// and extensions, §7 upload, delete_cert, §8 upload and removal messages): one upload per kind, the
// stored files with subject and expiry, removal after a confirmation. The user role only reads.
// `<Certificates section="pew_ftpc" kinds={['ca', 'client', 'key']} tls={false} />`; the chosen
// file is stored as `<kind>.<its extension>` and, when the page's section has a field of that kind
// (ca, client, key), the field takes the name (saved with the page).
import { useEffect, useState } from 'preact/hooks';
import { type CertKind, certExtensions } from '../../device/model/common.ts';
import { CONFIG_KEYS } from '../../device/model/keys.ts';
import { type CertInfo, type CertSection, certKindOf } from '../../device/model/uploads.ts';
import { ApiFailure } from '../api/client.ts';
import { deleteCert, getCerts, uploadFile } from '../api/uploads.ts';
import { errorText, LL } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { section as sectionState, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import css from '../styles/files.css' with { type: 'text' };

export interface CertificatesProps {
  /** the certificate folder: a section key, or pew_tls_client / pew_tls_server */
  section: CertSection;
  kinds: readonly CertKind[];
  /** spec §5: the TLS pages also take .der and .cer */
  tls: boolean;
  /** the field of the page's section that names each kind's file (default: the kind itself, when the section has it) */
  fields?: Partial<Record<CertKind, string>>;
  /** called after an upload or a removal went through */
  onChange?: () => void;
}

/** `Failed to …` followed by why: the first issue's text, else the code's. */
export function failureText(prefix: string, e: unknown): string {
  if (!(e instanceof ApiFailure)) return `${prefix} ${errorText('internal')}`;
  const first = e.issues[0];
  return `${prefix} ${first ? errorText(first.code, first.params) : errorText(e.code, e.params)}`;
}

const extOf = (file: string): string => (file.includes('.') ? file.slice(file.lastIndexOf('.') + 1).toLowerCase() : '');
const day = (iso: string | undefined): string => (iso ? new Date(iso).toLocaleDateString(LL.value.app.dateLocale()) : '');

function describe(c: CertInfo): string {
  const t = LL.value.certs;
  if (c.type === 'key') return t.key({ type: c.keyType ?? '?' });
  if (c.type === 'request') return t.request();
  if (c.type === 'invalid') return t.invalid();
  return c.count && c.count > 1 ? `${c.subject ?? ''} (${t.chain({ count: c.count })})` : (c.subject ?? '');
}

export function Certificates(props: CertificatesProps) {
  const t = LL.value.certs;
  const [certs, setCerts] = useState<CertInfo[] | null>(null);
  const [busy, setBusy] = useState(false);
  // the slot whose upload failed, and why
  const [problemKind, setProblemKind] = useState<CertKind | null>(null);
  const [problem, setProblem] = useWorded();
  const ro = readOnly.value;
  const refresh = () => getCerts(props.section).then(setCerts, () => setCerts([]));
  useEffect(() => {
    void refresh();
  }, [props.section]);

  /** the page section's field naming this kind's file, when the section has one */
  const fieldOf = (kind: CertKind): string | undefined => {
    const field = props.fields?.[kind] ?? kind;
    if (!CONFIG_KEYS.some(([k]) => k === props.section)) return undefined;
    return field in sectionState(props.section).temp.value ? field : undefined;
  };
  const bindField = (kind: CertKind, name: string) => {
    const field = fieldOf(kind);
    if (field) setField(props.section, field, name);
  };

  const upload = async (kind: CertKind, input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const name = `${kind}.${extOf(file.name)}`;
    setProblem(null);
    setBusy(true);
    try {
      await uploadFile({ kind: 'cert', section: props.section, name }, file);
      notify('info', t.uploaded({ name }));
      bindField(kind, name);
      props.onChange?.();
    } catch (e) {
      setProblemKind(kind);
      setProblem((L) => failureText(L.certs.uploadFailed(), e));
      notify('error', failureText(t.uploadFailed(), e));
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  const remove = async (c: CertInfo) => {
    const yes = await ask({ title: t.deleteTitle(), text: t.deleteText({ name: c.name }), yes: t.delete(), no: t.keep() });
    if (!yes) return;
    setBusy(true);
    try {
      await deleteCert(props.section, c.name);
      notify('info', t.removed({ name: c.name }));
      props.onChange?.();
      // a field that named the removed file names none now (saved with the page)
      const kind = certKindOf(c.name);
      const field = kind && fieldOf(kind);
      if (field && sectionState(props.section).temp.value[field] === c.name) setField(props.section, field, '');
    } catch (e) {
      notify('error', failureText(t.removeFailed(), e));
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  return (
    <div class="certificates" data-certs={props.section}>
      <style>{css as string}</style>
      {!ro && (
        <div class="cert-uploads">
          {props.kinds.map((kind) => {
            const exts = certExtensions(kind, props.tls).map((e) => `.${e}`);
            const id = `cert-${props.section}-${kind}`;
            return (
              <div class="field" key={kind} data-cert-kind={kind}>
                <label for={id}>{`${t.kinds[kind]()} · ${t.choose()}`}</label>
                <div class="control">
                  <input type="file" id={id} accept={exts.join(',')} disabled={busy} onChange={(e) => void upload(kind, e.currentTarget)} />
                </div>
                <small class="hint">{t.allowed({ ext: exts.join(' ') })}</small>
                {problemKind === kind && problem && (
                  <p class="error" role="alert">
                    {problem}
                  </p>
                )}
              </div>
            );
          })}
        </div>
      )}
      {certs !== null && certs.length === 0 && (
        <p class="hint" data-certs-empty>
          {t.none()}
        </p>
      )}
      {certs !== null && certs.length > 0 && (
        <table class="cert-list">
          <thead>
            <tr>
              <th>{t.file()}</th>
              <th>{t.subject()}</th>
              <th>{t.issuer()}</th>
              <th>{t.validTo()}</th>
              {!ro && <th />}
            </tr>
          </thead>
          <tbody>
            {certs.map((c) => (
              <tr key={c.name} data-cert={c.name} data-expired={c.expired ? 'true' : undefined}>
                <td>{c.name}</td>
                <td data-subject>{describe(c)}</td>
                <td data-issuer>{c.issuer ?? ''}</td>
                <td data-valid-to>
                  {day(c.validTo)}
                  {c.expired && <span class="badge warning"> {t.expired()}</span>}
                </td>
                {!ro && (
                  <td>
                    <button type="button" class="btn small danger" data-action="delete-cert" disabled={busy} onClick={() => void remove(c)}>
                      {t.delete()}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
