// What the shell's buttons do: save a page, save all, reset a page, and the 'settings not saved'
// question when leaving a page, logging out or before running a test (spec §2, §4).

import { LL, loadTexts } from '../i18n/translate.ts';
import { pageOf } from '../pages.ts';
import { ask } from '../state/confirm.ts';
import { allSections, revert, section } from '../state/sections.ts';
import { anyUnsaved, revertServices, servicesChanged } from '../state/service-edits.ts';

const changedOf = (keys: readonly string[]) => keys.filter((k) => section(k).changed.value);

/** The save and reset code, loaded with the first press of one of their buttons. */
const saving = () => import('./save.ts');
export const savePage = async (keys: readonly string[]): Promise<boolean> => (await saving()).savePage(keys);
export const saveAll = async (): Promise<boolean> => (await saving()).saveAll();
export const resetPage = async (keys: readonly string[]): Promise<void> => (await saving()).resetPage(keys);

/** Leaving a page with unsaved changes asks first; leaving drops the page's edits. */
export async function confirmLeave(from: string, to: string): Promise<boolean> {
  const leaving = pageOf(from);
  const target = pageOf(to);
  if (!leaving || target?.id === leaving.id) return true;
  // pages sharing their sections (the TLS parts, the wizard) keep the edits
  const changed = target?.sections.join() === leaving.sections.join() ? [] : changedOf(leaving.sections);
  const services = leaving.id === 'info' && servicesChanged.value;
  if (!changed.length && !services) return true;
  await loadTexts(['confirm']);
  const t = LL.value.confirm;
  if (!(await ask({ title: t.unsavedTitle(), text: t.unsavedLeave(), yes: t.leave(), no: t.stay() }))) return false;
  for (const k of changed) revert(k);
  if (services) revertServices();
  return true;
}

/**
 * Logging out with unsaved changes anywhere in the console (any page's settings, the service
 * switches of /info) asks first, as leaving a page does; logging out drops them.
 */
export async function confirmLogout(): Promise<boolean> {
  if (!anyUnsaved.value) return true;
  await loadTexts(['confirm']);
  const t = LL.value.confirm;
  if (!(await ask({ title: t.unsavedTitle(), text: t.unsavedLogout(), yes: t.logout(), no: t.stayLoggedIn() }))) return false;
  for (const s of allSections()) if (s.changed.value) revert(s.key);
  revertServices();
  return true;
}

/** Before a test runs against saved settings: unsaved edits would not be tested (spec §2). */
export async function confirmBeforeTest(keys: readonly string[]): Promise<boolean> {
  if (!changedOf(keys).length) return true;
  await loadTexts(['confirm']);
  const t = LL.value.confirm;
  return ask({ title: t.unsavedTitle(), text: t.unsavedTest(), yes: t.testAnyway(), no: t.cancel() });
}
