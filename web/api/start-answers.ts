// The daemon's answers to the console's start requests, carried by index.html
// (device/model/start-answers.ts): read once from their JSON element, each taken once. Only in the
// unit's own mode: in a test or cloud mode the console asks another server, whatever page it came in.
import { START_ANSWERS_ID, type StartAnswer } from '../../device/model/start-answers.ts';

let answers: Map<string, StartAnswer> | undefined;

function read(): Map<string, StartAnswer> {
  const map = new Map<string, StartAnswer>();
  const el = typeof document === 'undefined' ? null : document.getElementById(START_ANSWERS_ID);
  if (!el) return map;
  el.remove();
  try {
    for (const [path, a] of Object.entries(JSON.parse(el.textContent ?? '') as Record<string, StartAnswer>))
      if (typeof a?.status === 'number') map.set(path, { status: a.status, body: a.body });
  } catch {
    // a page without usable answers: the console asks
  }
  return map;
}

/** The page's answer to a GET of `path`, once; undefined when there is none (ask the daemon). */
export function takeStartAnswer(path: string): StartAnswer | undefined {
  answers ??= read();
  const a = answers.get(path);
  answers.delete(path);
  return a;
}
