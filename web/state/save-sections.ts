// Saving sections and putting their defaults in (spec §4, §7): loaded with the save code
// (web/shell/save.ts) and the pages that save by themselves, not with the first page.
import { batch } from '@preact/signals';
import { ApiFailure, get, post } from '../api/client.ts';
import { ensureModel } from './model.ts';
import { accept, defaultsFor, section } from './sections.ts';

type Value = Record<string, unknown>;

/**
 * Saves the changed sections among `keys` (all changed sections for save-all): one section with its
 * own request, several as one transaction. Returns the keys saved; throws ApiFailure.
 */
export async function saveSections(keys: readonly string[]): Promise<string[]> {
  await ensureModel(); // the check before a save needs the schemas
  const changed = keys.filter((k) => section(k).changed.value || section(k).fetchFailed.value);
  if (changed.length === 0) return [];
  try {
    if (changed.length === 1) {
      const key = changed[0]!;
      const value = await post<Value>(`/config/${key}`, section(key).temp.value);
      accept(key, value);
    } else {
      const body = Object.fromEntries(changed.map((k) => [k, section(k).temp.value]));
      const saved = await post<Record<string, Value>>('/config', body);
      batch(() => {
        for (const k of changed) if (saved[k]) accept(k, saved[k]);
      });
    }
  } catch (e) {
    if (e instanceof ApiFailure && e.issues.length) {
      batch(() => {
        for (const k of changed) section(k).serverIssues.value = e.issues.filter((i) => (i.section ?? changed[0]) === k);
      });
    }
    throw e;
  }
  return changed;
}

/** Puts the defaults into the temporary copy (saved with the next save). */
export async function resetToDefaults(key: string): Promise<void> {
  const defaults = await get<Value>(`/config/get_reset?section=${encodeURIComponent(key)}`).catch(() => defaultsFor(key));
  section(key).temp.value = defaults;
}
