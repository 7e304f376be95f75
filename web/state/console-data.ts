// The data the console loads once signed in (spec §7 "on load"): the system information first (the
// first page shows it) and every section in one request beside it, then the configuration model in
// the background. It starts as soon as the session is known, while the dictionary and the first
// page's code are still loading, instead of after the first render.

import { ensureModel } from './model.ts';
import { loadSections } from './sections.ts';
import { loadSystem } from './system.ts';

let early: Promise<void> | undefined;

/** Validation markers and defaults need the model, the first page does not: it is loaded once the browser is idle. */
export function whenIdle(fn: () => unknown): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void fn(), { timeout: 2000 });
  else setTimeout(() => void fn(), 200);
}

function load(): Promise<void> {
  const data = Promise.all([loadSystem(), loadSections()]).then(() => undefined);
  void data.then(() => whenIdle(ensureModel));
  return data;
}

/** At start, when the session check found a signed-in user: begins the load before the console renders (its first render waits for it). */
export function preloadConsoleData(): Promise<void> {
  early ??= load();
  return early;
}

/** For a console that has just mounted: the load begun at start when there is one, else a new one (after a login). */
export function consoleData(): Promise<void> {
  const p = early ?? load();
  early = undefined;
  return p;
}
