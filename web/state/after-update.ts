// After a firmware update the page reloads itself (spec §4) and the restarted unit asks for a login:
// the version the unit runs then is read from the unit and said once the console is back, so the
// technician hears how the update ended instead of only seeing the login page.

import type { UpdateStatus } from '../../device/model/firmware.ts';
import { get } from '../api/client.ts';
import { LL, loadTexts } from '../i18n/translate.ts';
import { notify } from './notify.ts';

const KEY = 'console.firmware.updatedFrom';
/** the notice stays longer than the usual 5 s: it is the end of a long wait */
const SHOWN_MS = 15_000;

/** Remembers, before the reload, the version the update started from. */
export function rememberUpdate(from: string): void {
  try {
    sessionStorage.setItem(KEY, from);
  } catch {
    /* no storage: the page still works, without the notice */
  }
}

/** Once signed in after the reload: the version now running, read from the unit, as a notice. */
export async function reportUpdate(): Promise<void> {
  let from: string | null = null;
  try {
    from = sessionStorage.getItem(KEY);
  } catch {
    return;
  }
  if (from === null) return;
  sessionStorage.removeItem(KEY);
  try {
    const [s] = await Promise.all([get<UpdateStatus>('/config/get_update_status'), loadTexts(['firmware'])]);
    if (s.version !== from) notify('info', LL.value.firmware.nowRunning({ version: s.version, from }), SHOWN_MS);
    else notify('warning', LL.value.firmware.stillRunning({ version: s.version }), SHOWN_MS);
  } catch {
    /* the status could not be read: the firmware page shows the last install when opened */
  }
}
