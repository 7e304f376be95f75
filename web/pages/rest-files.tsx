// /rest HTTP server files (spec §2 /rest, §3 session level "the uploaded HTTP files list", §7
// get_http_content, delete_user_webfiles): the files uploaded for the unit's HTTP server with their
// sizes; the administrator deletes the ticked ones after a question, the user role only looks.
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../api/client.ts';
import { deleteHttpFiles, fetchHttpFiles } from '../api/webfiles.ts';
import { CheckAll, CheckRow, useSelection } from '../forms/selection.tsx';
import { errorText, LL } from '../i18n/translate.ts';
import { fileSize } from '../log/format.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { readOnly } from '../state/session.ts';
import { httpFiles } from '../state/system.ts';

export function RestFiles() {
  const t = LL.value.rest;
  const locale = LL.value.app.dateLocale();
  const [state, setState] = useState<'loading' | 'failed' | 'ready'>('loading');
  const [round, setRound] = useState(0);
  const files = httpFiles.value;
  const sel = useSelection(files.map((f) => f.name));

  useEffect(() => {
    let live = true;
    setState('loading');
    fetchHttpFiles().then(
      (list) => {
        if (!live) return;
        httpFiles.value = list;
        sel.keep(list.map((f) => f.name));
        setState('ready');
      },
      () => {
        if (live) setState('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [round]);

  async function remove() {
    const names = [...sel.checked];
    const yes = await ask({ title: t.removeTitle(), text: t.removeText({ count: names.length }), yes: t.removeYes(), no: LL.value.confirm.cancel() });
    if (!yes) return;
    try {
      const { deleted, files: left } = await deleteHttpFiles(names);
      httpFiles.value = left;
      notify('info', t.removed({ count: deleted.length }));
      sel.clear();
    } catch (e) {
      notify('error', errorText(e instanceof ApiFailure ? e.code : 'internal'));
      setRound((r) => r + 1);
    }
  }

  return (
    <section class="card group" aria-labelledby="rest-files" data-http-files>
      <div class="row between">
        <h2 id="rest-files">{t.files()}</h2>
        <button type="button" class="btn small" data-action="refresh-http-files" onClick={() => setRound((r) => r + 1)}>
          {t.refresh()}
        </button>
      </div>
      <p class="hint">{t.filesHint()}</p>
      {state === 'loading' && files.length === 0 && (
        <p class="hint" aria-busy="true">
          {LL.value.shell.loading()}
        </p>
      )}
      {state === 'failed' && (
        <p class="error" role="alert" data-files-failed>
          {t.listFailed()}
        </p>
      )}
      {state === 'ready' && files.length === 0 && (
        <p class="hint" data-empty>
          {t.none()}
        </p>
      )}
      {files.length > 0 && (
        <div class="files-view">
          <table class="files">
            <thead>
              <tr>
                <th>
                  <CheckAll sel={sel} label={t.checkAll()} />
                </th>
                <th>{t.name()}</th>
                <th class="num">{t.size()}</th>
              </tr>
            </thead>
            <tbody>
              {files.map((f) => (
                <tr key={f.name} data-file={f.name}>
                  <td>
                    <CheckRow sel={sel} name={f.name} label={t.check({ name: f.name })} />
                  </td>
                  <td>{f.name}</td>
                  <td class="num">{fileSize(f.size, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div class="row">
        <button
          type="button"
          class="btn small"
          data-action="remove-http-files"
          disabled={readOnly.value || sel.checked.size === 0}
          onClick={() => void remove()}
        >
          {t.remove({ count: sel.checked.size })}
        </button>
      </div>
    </section>
  );
}
