// What the shell's buttons do: save a page, save all, reset a page, and the 'settings not saved'
// question when leaving a page or before running a test (spec §2, §4).
import { ask } from '../state/confirm.ts';
import { notify, SAVED_MS } from '../state/notify.ts';
import { allSections, firstProblem, resetToDefaults, revert, saveSections, section } from '../state/sections.ts';
import { ApiFailure, type ApiIssue } from '../api/client.ts';
import { errorText, fieldText, LL } from '../i18n/translate.ts';
import { pageOf, pageOfSection } from '../pages.ts';
import { ensureModel } from '../state/model.ts';
import { revertServices, saveServiceEdits, servicesChanged } from '../state/service-edits.ts';

const changedOf = (keys: readonly string[]) => keys.filter((k) => section(k).changed.value);

/** "<field>: <message>", or the message alone for a problem of the whole section. */
function fieldProblem(key: string, i: Pick<ApiIssue, 'path' | 'code' | 'params'>): string {
  return `${i.path ? fieldText(key, i.path).label + ': ' : ''}${errorText(i.code, i.params)}`;
}

/** "<page> · <field>: <message>" for the first problem among the sections. */
function problemText(keys: readonly string[]): string | undefined {
  const p = firstProblem(keys);
  if (!p) return undefined;
  const page = pageOfSection(p.key);
  const pageName = page ? LL.value.nav[page.id]() : p.key;
  return `${pageName}${p.issue.path ? ' · ' : ': '}${fieldProblem(p.key, p.issue)}`;
}

/** Saves the sections among `keys` and, for save-all, the switched services of /info. */
async function save(keys: readonly string[], withServices = false): Promise<boolean> {
  await ensureModel();
  const problem = problemText(keys);
  if (problem) {
    notify('error', `${LL.value.notify.saveFailed()} ${problem}`);
    return false;
  }
  try {
    const saved = await saveSections(keys);
    const services = withServices && servicesChanged.value ? await saveServiceEdits() : false;
    notify('info', saved.length || services ? LL.value.notify.saved() : LL.value.notify.nothingToSave(), SAVED_MS);
    return true;
  } catch (e) {
    const f = e instanceof ApiFailure ? e : new ApiFailure(0, 'internal');
    const first = f.issues[0];
    const detail = first ? fieldProblem(first.section ?? keys[0] ?? '', first) : errorText(f.code, f.params);
    notify('error', `${LL.value.notify.saveFailed()} ${detail}`);
    return false;
  }
}

export const savePage = (keys: readonly string[]) => save(keys);
export const saveAll = () => save(allSections().map((s) => s.key), true);

export async function resetPage(keys: readonly string[]): Promise<void> {
  const t = LL.value.confirm;
  if (!(await ask({ title: t.resetTitle(), text: t.resetText(), yes: t.reset(), no: t.cancel() }))) return;
  for (const k of keys) await resetToDefaults(k);
  notify('warning', LL.value.notify.resetDone());
}

/** Leaving a page with unsaved changes asks first; leaving drops the page's edits. */
export async function confirmLeave(from: string, to: string): Promise<boolean> {
  const leaving = pageOf(from);
  const target = pageOf(to);
  if (!leaving || target?.id === leaving.id) return true;
  // pages sharing their sections (the TLS parts, the wizard) keep the edits
  const changed = target?.sections.join() === leaving.sections.join() ? [] : changedOf(leaving.sections);
  const services = leaving.id === 'info' && servicesChanged.value;
  if (!changed.length && !services) return true;
  const t = LL.value.confirm;
  if (!(await ask({ title: t.unsavedTitle(), text: t.unsavedLeave(), yes: t.leave(), no: t.stay() }))) return false;
  for (const k of changed) revert(k);
  if (services) revertServices();
  return true;
}

/** Before a test runs against saved settings: unsaved edits would not be tested (spec §2). */
export async function confirmBeforeTest(keys: readonly string[]): Promise<boolean> {
  if (!changedOf(keys).length) return true;
  const t = LL.value.confirm;
  return ask({ title: t.unsavedTitle(), text: t.unsavedTest(), yes: t.testAnyway(), no: t.cancel() });
}
