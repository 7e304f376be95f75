// A problem as the technician reads it: where it is, named as the pages name it ("Ports and
// restrictions, thread 2, listening port"), and its message with any other place it mentions named
// the same way (`port_conflict`, `addresses_overlap` carry `other`, a path such as
// `pew_redirect.threads.1.port` or one inside the same section). Never an internal key.

import type { IssueParams } from '../../device/model/issues.ts';
import { CONFIG_KEYS } from '../../device/model/keys.ts';
import { INTERFACE_NAMES, type InterfaceId } from '../../device/model/plc.ts';
import type { ClientCode } from '../api/client.ts';
import { pageOfSection } from '../pages.ts';
import { section as sectionState } from '../state/sections.ts';
import { fieldText } from './field-text.ts';
import { errorText, LL } from './translate.ts';

const SECTION_KEYS: readonly string[] = CONFIG_KEYS.map(([k]) => k);
/** the list names of the sections' entries (dictionary `form.place`), by the list's key */
const ENTRY_WORD = { threads: 'thread', mapping: 'restriction', connections: 'connection', datalist: 'point', headers: 'header' } as const;

/** The entries a path passes through, counted from 1: "thread 2, restriction 1"; COM interfaces by name. */
function entriesOf(key: string, path: string): string[] {
  const t = LL.value.form.place;
  const segs = path.split('.');
  const out: string[] = [];
  segs.forEach((seg, i) => {
    if (!/^\d+$/.test(seg)) return;
    const list = segs[i - 1] ?? '';
    const n = Number(seg);
    if (key === 'pew' && list === 'interfaces') {
      const id = (sectionState('pew').temp.value.interfaces as { id?: number }[] | undefined)?.[n]?.id;
      out.push(INTERFACE_NAMES[id as InterfaceId] ?? t.entry({ n: n + 1 }));
    } else {
      const word = ENTRY_WORD[list as keyof typeof ENTRY_WORD];
      out.push(word ? t[word]({ n: n + 1 }) : t.entry({ n: n + 1 }));
    }
  });
  return out;
}

/** "Page, entry, field" of a section's field (or of an entry, when the path ends at one). */
export function placeText(key: string, path: string): string {
  const page = pageOfSection(key);
  const parts = [page ? LL.value.nav[page.id]() : key];
  if (key === 'pew_log') {
    // the logger names its places itself ("Log file 2 · data point 5 · Name")
    if (path) parts.push(fieldText(key, path).label);
    return parts.join(', ');
  }
  parts.push(...entriesOf(key, path));
  if (path && !/(^|\.)\d+$/.test(path)) parts.push(fieldText(key, path).label);
  return parts.join(', ');
}

/** The place a problem's `other` param names: another section's (`pew_mqtt.plc_control_dt`) or one of `key`. */
function otherPlace(key: string, other: string): string {
  const dot = other.indexOf('.');
  const head = dot < 0 ? other : other.slice(0, dot);
  return SECTION_KEYS.includes(head) ? placeText(head, dot < 0 ? '' : other.slice(dot + 1)) : placeText(key, other);
}

/** The message of a problem of section `key`, its `other` place named as the pages name it. */
export function issueText(key: string, code: ClientCode, params?: IssueParams): string {
  const other = params?.other;
  // a path (`threads.0.mapping.1`); a page may have named the place already ("restriction 1")
  const isPath = typeof other === 'string' && /^[a-z_][a-z0-9_]*(\.[a-z0-9_]+)*$/.test(other);
  return errorText(code, isPath ? { ...params, other: otherPlace(key, other) } : params);
}

/** "<place>: <message>" of one problem of section `key` (the message alone for the whole section). */
export function problemLine(key: string, i: { path: string; code: ClientCode; params?: IssueParams }): string {
  return LL.value.form.problem({ place: placeText(key, i.path), message: issueText(key, i.code, i.params) });
}
