// The audit log on /users (security.md AUD-1): read-only, newest first, paged, with a download of
// the whole log. Nothing here can change it.
import { useEffect, useState } from 'preact/hooks';
import { auditDetail } from '../api/audit.ts';
import { saveFile } from '../api/backup.ts';
import { type AuditPage, auditPage, fetchAuditLog } from '../api/users.ts';
import { failureText } from '../forms/certificates.tsx';
import { TableView } from '../forms/table-view.tsx';
import { formatDateTime, LL } from '../i18n/translate.ts';
import { auditActionText } from '../i18n/unit-values.ts';
import { useWorded } from '../i18n/worded.ts';

export const AUDIT_PAGE_SIZE = 25;

export function AuditTable({ version }: { version: number }) {
  const [page, setPage] = useState(1);
  const [data, setData] = useState<AuditPage | null>(null);
  const [error, setError] = useWorded();
  const t = LL.value.users;
  const load = (p: number) =>
    auditPage(p, AUDIT_PAGE_SIZE).then(
      (d) => {
        setData(d);
        setError(null);
      },
      (e: unknown) => setError((L) => L.users.failed({ reason: failureText('', e).trim() })),
    );
  useEffect(() => {
    void load(page);
  }, [page, version]);
  // a POST (the download is audited: no GET has a side effect), saved as a file by the browser
  const download = () =>
    fetchAuditLog().then(
      (blob) => saveFile('audit.log', blob),
      (e: unknown) => setError((L) => L.users.failed({ reason: failureText('', e).trim() })),
    );
  return (
    <section class="card" aria-labelledby="audit-title" data-block="audit">
      <div class="row between">
        <h2 id="audit-title">{t.audit()}</h2>
        <div class="row">
          <button type="button" class="btn small" onClick={() => void load(page)} data-action="refresh-audit">
            {t.refresh()}
          </button>
          <button type="button" class="btn small" onClick={() => void download()} data-action="download-audit">
            {t.download()}
          </button>
        </div>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {data && data.entries.length === 0 && <p>{t.empty()}</p>}
      {data && data.entries.length > 0 && (
        <>
          <TableView labelledBy="audit-title">
            <table data-table="audit">
              <thead>
                <tr>
                  <th>{t.time()}</th>
                  <th>{t.action()}</th>
                  <th>{t.user()}</th>
                  <th>{t.source()}</th>
                  <th>{t.detail()}</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e, i) => (
                  <tr key={`${e.time}-${i}`} data-action-name={e.action}>
                    <td>{formatDateTime(e.time)}</td>
                    <td>{auditActionText(LL.value, e.action)}</td>
                    <td>{e.user ?? ''}</td>
                    <td>{e.source ?? ''}</td>
                    <td class="detail">{auditDetail(e)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableView>
          <div class="row between">
            <button type="button" class="btn small" disabled={page <= 1} onClick={() => setPage(page - 1)} data-action="audit-newer">
              {t.newer()}
            </button>
            <span data-audit-page>{t.page({ page: data.page, pages: data.pages, total: data.total })}</span>
            <button type="button" class="btn small" disabled={page >= data.pages} onClick={() => setPage(page + 1)} data-action="audit-older">
              {t.older()}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
