// Saving and resetting pages (spec §2, §4): what the Save, Save all and Reset buttons do, loaded
// with the first press (web/shell/actions.ts) so that the first page does not carry it.

import { ApiFailure } from '../api/client.ts';
import { problemLine } from '../i18n/issue-text.ts';
import { errorText, LL, loadTexts } from '../i18n/translate.ts';
import { ask } from '../state/confirm.ts';
import { ensureModel } from '../state/model.ts';
import { notify, SAVED_MS } from '../state/notify.ts';
import { resetToDefaults, saveSections } from '../state/save-sections.ts';
import { allSections, section } from '../state/sections.ts';
import { saveServiceEdits, servicesChanged } from '../state/service-edits.ts';

/** The list positions of a path (`threads.1.mapping.0.area` → [1, 0]), to read the problems entry by entry. */
const positions = (path: string) =>
  path
    .split('.')
    .filter((s) => /^\d+$/.test(s))
    .map(Number);
function byEntry(a: { path: string }, b: { path: string }): number {
  const [pa, pb] = [positions(a.path), positions(b.path)];
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return pa.length - pb.length;
}

/** Every problem among the sections, one line each ("<page>, <entry>, <field>: <message>"), entry by entry. */
function problemLines(keys: readonly string[]): string[] {
  return keys.flatMap((key) => [...section(key).validation.value.issues].sort(byEntry).map((i) => problemLine(key, i)));
}

/** The notice of a refused save: the reason, then every problem on a line of its own. */
function refused(lines: readonly string[]): void {
  notify('error', [LL.value.form.notice.saveFailed(), ...lines].join('\n'));
}

/** Saves the sections among `keys` and, for save-all, the switched services of /info. */
async function save(keys: readonly string[], withServices = false): Promise<boolean> {
  await ensureModel();
  await loadTexts(['fields', 'logger', 'form', 'errors']); // the field names and messages, also when Save all is pressed on a page without fields
  const problems = problemLines(keys);
  if (problems.length) {
    refused(problems);
    return false;
  }
  try {
    const saved = await saveSections(keys);
    const services = withServices && servicesChanged.value ? await saveServiceEdits() : false;
    notify('info', saved.length || services ? LL.value.form.notice.saved() : LL.value.form.notice.nothingToSave(), SAVED_MS);
    return true;
  } catch (e) {
    const f = e instanceof ApiFailure ? e : new ApiFailure(0, 'internal');
    const lines = [...f.issues].sort(byEntry).map((i) => problemLine(i.section ?? keys[0] ?? '', i));
    refused(lines.length ? lines : [errorText(f.code, f.params)]);
    return false;
  }
}

export const savePage = (keys: readonly string[]) => save(keys);
export const saveAll = () =>
  save(
    allSections().map((s) => s.key),
    true,
  );

export async function resetPage(keys: readonly string[]): Promise<void> {
  await loadTexts(['confirm']);
  const t = LL.value.confirm;
  if (!(await ask({ title: t.resetTitle(), text: t.resetText(), yes: t.reset(), no: t.cancel() }))) return;
  for (const k of keys) await resetToDefaults(k);
  // the defaults may be what is saved already: then there is nothing to save, and the notice says so
  if (keys.some((k) => section(k).changed.value)) notify('warning', LL.value.form.notice.resetDone());
  else notify('info', LL.value.form.notice.resetSame(), SAVED_MS);
}
