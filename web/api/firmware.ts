// The firmware update's calls (spec §7 get_update_status; docs/firmware.md): the package goes as
// the raw body of POST /config/firmware with its .md5 file's content in the query; the status is
// read through the usual client while the daemon runs, and probed without it while the unit
// restarts (a restarted daemon has no session any more: its 401 must not end on the login page).
import type { UpdateStatus } from '../../device/model/firmware.ts';
import { get, mode, postFile } from './client.ts';
import { apiUrl } from './mode.ts';

export const sendUpdate = (zip: File, md5Name: string, md5: string) =>
  postFile<{ state: 'updating'; target: string }>(`/config/firmware?${new URLSearchParams({ name: zip.name, md5_name: md5Name, md5 })}`, zip);

export const updateStatus = () => get<UpdateStatus>('/config/get_update_status');

/** What the daemon answers while it may be restarting: its status, `restarted` (it answers, the session is gone), or `down`. */
export async function probeUpdate(): Promise<UpdateStatus | 'restarted' | 'down'> {
  try {
    const res = await fetch(apiUrl(mode.value, '/config/get_update_status'), {
      headers: { Accept: 'application/json' },
      credentials: mode.value.base ? 'include' : 'same-origin',
      cache: 'no-store',
    });
    if (res.status === 401) return 'restarted';
    if (!res.ok) return 'down';
    return (await res.json()) as UpdateStatus;
  } catch {
    return 'down';
  }
}
