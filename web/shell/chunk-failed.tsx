import { LL } from '../i18n/translate.ts';

/** Shown when a page's code could not be loaded (connection lost, unit updated meanwhile). */
export function ChunkFailed() {
  return (
    <div class="card error-card" role="alert">
      <p>{LL.value.notify.chunkFailed()}</p>
      <button type="button" class="btn primary" onClick={() => location.reload()}>
        {LL.value.notify.retry()}
      </button>
    </div>
  );
}
