// English: the wording shared by the settings forms (a label with its message, ranges, register footprints, where a problem is); loaded with the settings pages, the login pages and the services block of /info.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_form = {
  labelled: '{label}: {text}',
  range: 'Range {min} – {max}',
  /** the notices of a save and a reset (shown on the settings pages, which load this part) */
  notice: {
    saved: 'Settings saved.',
    saveFailed: 'Failed to save settings.',
    nothingToSave: 'Nothing to save: no setting was changed.',
    resetDone: 'The defaults are in place. Save to apply them.',
    resetSame: 'The defaults are in place: they are the saved settings already.',
  },
  footprint: 'Uses DT{first} – DT{last} ({count} register{{s}}).',
  multipleRegisters: 'Several services use the same PLC registers. Change the control registers so that they do not overlap.',
  /** where a problem is, as the technician sees it: "Ports and restrictions, thread 2, listening port" */
  place: {
    thread: 'thread {n}',
    restriction: 'restriction {n}',
    connection: 'connection {n}',
    point: 'data point {n}',
    header: 'header {n}',
    entry: 'entry {n}',
  },
  problems: 'Problems to correct:',
  problem: '{place}: {message}',
} satisfies BaseTranslation;

export default en_form;
