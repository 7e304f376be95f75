// What a redirect thread does with a client's MEWTOCOL-COM command (spec §3 Port; mewtocol.md §2):
// data commands pass only when the thread's restrictions grant every word they touch (contacts X,
// Y, R, L are the bits of WX, WY, WR, WL); the status commands RT and EXRT pass when
// `monitoring_cmd` is on; everything else is refused with `!65` (protect error) and never reaches
// the PLC. Refused as well: timer/counter values and contacts (no restriction area holds them), and
// the monitor commands MD/MC/MG, whose registered addresses the thread could not check.

import type { Restriction } from '../model/sections/redirect.ts';
import { BIT_AREA_WORDS, type ContactRef, MEW_ERR, type MewRequest, type WordArea } from '../protocol/index.ts';
import { allowed, type Op } from './access.ts';

/** `!65` protect error: what a client gets for a command its thread does not allow */
export const REFUSED = 65;

export interface ThreadRules {
  mapping: readonly Restriction[];
  monitoring_cmd: boolean;
}

type Touch = { area: WordArea; start: number; count: number; op: Op };

function contactWord(c: ContactRef, op: Op): Touch | undefined {
  if (!('word' in c)) return undefined; // T/C contacts: no restriction area
  return { area: BIT_AREA_WORDS[c.area], start: c.word, count: 1, op };
}

/** The words a command touches; undefined for commands that touch no restriction area. */
function touches(req: MewRequest): Touch[] | undefined {
  switch (req.cmd) {
    case 'RD':
      return [{ area: req.area, start: req.start, count: req.count, op: 'read' }];
    case 'WD':
      return [{ area: req.area, start: req.start, count: req.words.length, op: 'write' }];
    case 'RCC':
      return [{ area: req.area, start: req.start, count: req.count, op: 'read' }];
    case 'WCC':
      return [{ area: req.area, start: req.start, count: req.words.length, op: 'write' }];
    case 'RCS': {
      const t = contactWord(req.contact, 'read');
      return t && [t];
    }
    case 'WCS':
      return [contactWord(req.contact, 'write')!];
    case 'RCP': {
      const all = req.contacts.map((c) => contactWord(c, 'read'));
      return all.every((t) => t) ? (all as Touch[]) : undefined;
    }
    case 'WCP':
      return req.contacts.map((c) => contactWord(c.contact, 'write')!);
    default:
      return undefined;
  }
}

/** undefined: forward the command; a number: answer with that MEWTOCOL error instead. */
export function checkMewCommand(req: MewRequest, rules: ThreadRules): number | undefined {
  if (req.cmd === 'RT' || req.cmd === 'EXRT') return rules.monitoring_cmd ? undefined : REFUSED;
  const t = touches(req);
  if (!t) return REFUSED;
  return t.every((x) => allowed(rules.mapping, x.area, x.start, x.count, x.op)) ? undefined : REFUSED;
}

/** A command the codec cannot read is refused as not supported (`!42`): it cannot be checked. */
export const UNREADABLE = MEW_ERR.NOT_SUPPORTED;
