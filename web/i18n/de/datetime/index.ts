// German: the texts of the date and time page (/datetime).
import type { NamespaceDatetimeTranslation } from '../../i18n-types.ts';

const de_datetime = {
  sync: 'Aktualisierung der SPS-Uhr',
  clock: 'SPS-Uhr',
  status: 'Status',
  running: 'Aktualisierung',
  yes: 'läuft',
  no: 'läuft nicht',
  synced: 'synchronisiert',
  notSynced: 'nicht synchronisiert',
  lastSync: 'Letzte Aktualisierung',
  never: 'noch keine',
  ok: '{written} geschrieben',
  failed: 'fehlgeschlagen',
  triggers: { time: 'zeitgesteuert', plc: 'auf Anforderung der SPS', request: 'auf Anforderung' },
} satisfies NamespaceDatetimeTranslation;

export default de_datetime;
