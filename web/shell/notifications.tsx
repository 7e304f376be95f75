import { LL } from '../i18n/translate.ts';
import { dismiss, notices } from '../state/notify.ts';

/** The notices at the top, each with a bar running down for as long as it stays (spec §4). */
export function Notifications() {
  return (
    <div class="notices" aria-live="polite">
      {notices.value.map((n) => (
        <div key={n.id} class={`notice ${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'} data-kind={n.kind}>
          <span>{n.text}</span>
          <button type="button" class="close" aria-label={LL.value.shell.close()} onClick={() => dismiss(n.id)}>
            ×
          </button>
          <div class="bar" style={{ animationDuration: `${n.ms}ms` }} />
        </div>
      ))}
    </div>
  );
}
