// /log files on a storage (spec §2 /log "list/download log files", §7 get_files_intern/usb/temp,
// delete_logfile, download/; §8 "Failed to read file; no files found"): the CSV files of the chosen
// storage's log folder with size and time, each downloadable; the administrator deletes the ticked
// ones after a question. A file the logger starts while the page is open joins the list by itself.
import { useEffect, useState } from 'preact/hooks';
import { STORAGES } from '../../device/model/sections/log.ts';
import { VOLUME_IDS } from '../../hw/types.ts';
import { ApiFailure } from '../api/client.ts';
import { deleteLogFiles, fetchLogFiles, logFileUrl, type Storage, type VolumeFiles } from '../api/logfiles.ts';
import { CheckAll, CheckRow, useSelection } from '../forms/selection.tsx';
import { errorText, formatDateTime, LL } from '../i18n/translate.ts';
import { fileSize } from '../log/format.ts';
import { KEY } from '../log/page-state.ts';
import { ask } from '../state/confirm.ts';
import { logStatus } from '../state/log-status.ts';
import { notify } from '../state/notify.ts';
import { section } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';

type Listing = { state: 'loading' } | { state: 'failed' } | { state: 'ready'; volume: VolumeFiles };

const storageName = (s: Storage) => (LL.value.logger.generalFields.storage.options as Record<string, () => string>)[String(s)]!();

export function LogStorage() {
  const t = LL.value.logger.storageFiles;
  const locale = LL.value.app.dateLocale();
  const saved = section(KEY).saved.value.storage;
  const [storage, setStorage] = useState<Storage>((STORAGES as readonly unknown[]).includes(saved) ? (saved as Storage) : 0);
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [round, setRound] = useState(0);

  // the files the logger's status (polled by the page every tick) says it wrote last on this storage
  const written = (logStatus.value?.files ?? [])
    .map((f) => f.write)
    .filter((w) => w?.file && w.volume === VOLUME_IDS[storage])
    .map((w) => w!.file!);
  const missing = listing.state === 'ready' && listing.volume.mounted && written.some((name) => !listing.volume.files.some((f) => f.name === name));

  useEffect(() => {
    let live = true;
    // a refresh for a new file keeps the list on screen (no "loading" flash)
    if (!missing) setListing({ state: 'loading' });
    fetchLogFiles(storage).then(
      (volume) => {
        if (!live) return;
        setListing({ state: 'ready', volume });
        sel.keep(volume.files.map((f) => f.name));
      },
      () => {
        if (live) setListing({ state: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [storage, round]);

  // a file the logger began since the list was read: read the list again, once per new name
  const newest = missing ? written.join('|') : '';
  useEffect(() => {
    if (newest) setRound((r) => r + 1);
  }, [newest]);

  const files = listing.state === 'ready' ? listing.volume.files : [];
  const sel = useSelection(files.map((f) => f.name));

  async function remove() {
    const names = [...sel.checked];
    const yes = await ask({
      title: t.removeTitle(),
      text: t.removeText({ count: names.length, storage: storageName(storage) }),
      yes: t.removeYes(),
      no: LL.value.confirm.cancel(),
    });
    if (!yes) return;
    try {
      const deleted = await deleteLogFiles(storage, names);
      notify('info', t.removed({ count: deleted.length }));
      sel.clear();
    } catch (e) {
      notify('error', errorText(e instanceof ApiFailure ? e.code : 'internal'));
    }
    setRound((r) => r + 1);
  }

  return (
    <section class="card group" aria-labelledby="log-storage" data-storage-files={storage}>
      <div class="row between">
        <h2 id="log-storage">{LL.value.logger.titles.storage()}</h2>
        <div class="row">
          <label for="log-volume">{t.volume()}</label>
          <select
            id="log-volume"
            value={String(storage)}
            onChange={(e) => {
              sel.clear();
              setStorage(Number(e.currentTarget.value) as Storage);
            }}
          >
            {STORAGES.map((s) => (
              <option key={s} value={String(s)}>
                {storageName(s)}
              </option>
            ))}
          </select>
          <button type="button" class="btn small" data-action="refresh-files" onClick={() => setRound((r) => r + 1)}>
            {t.refresh()}
          </button>
        </div>
      </div>
      {listing.state === 'loading' && (
        <p class="hint" aria-busy="true">
          {LL.value.shell.loading()}
        </p>
      )}
      {listing.state === 'failed' && (
        <p class="error" role="alert" data-files-failed>
          {t.listFailed()}
        </p>
      )}
      {listing.state === 'ready' && !listing.volume.mounted && (
        <p class="hint" data-not-mounted>
          {t.notMounted()}
        </p>
      )}
      {listing.state === 'ready' && listing.volume.mounted && files.length === 0 && (
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
                <th>{t.modified()}</th>
              </tr>
            </thead>
            <tbody>
              {files.map((f) => (
                <tr key={f.name} data-file={f.name}>
                  <td>
                    <CheckRow sel={sel} name={f.name} label={t.check({ name: f.name })} />
                  </td>
                  <td>
                    <a href={logFileUrl(storage, f.name)} download={f.name}>
                      {f.name}
                    </a>
                  </td>
                  <td class="num">{fileSize(f.size, locale)}</td>
                  <td>{formatDateTime(f.mtime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="hint" data-total>
            {t.total({
              count: files.length,
              size: fileSize(
                files.reduce((n, f) => n + f.size, 0),
                locale,
              ),
            })}
          </p>
        </div>
      )}
      <div class="row">
        <button type="button" class="btn small" data-action="remove-files" disabled={readOnly.value || sel.checked.size === 0} onClick={() => void remove()}>
          {t.remove({ count: sel.checked.size })}
        </button>
      </div>
    </section>
  );
}
