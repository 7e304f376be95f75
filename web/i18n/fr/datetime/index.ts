// French: the texts of the date and time page (/datetime).
import type { NamespaceDatetimeTranslation } from '../../i18n-types.ts';

const fr_datetime = {
  sync: 'Mise à jour de l’horloge de l’automate',
  clock: 'Horloge de l’automate',
  status: 'État',
  running: 'Mise à jour',
  yes: 'active',
  no: 'inactive',
  synced: 'synchronisé',
  notSynced: 'non synchronisé',
  lastSync: 'Dernière mise à jour',
  never: 'aucune pour l’instant',
  ok: '{written} écrit',
  failed: 'échec',
  triggers: { time: 'périodique', plc: 'à la demande de l’automate', request: 'sur demande' },
} satisfies NamespaceDatetimeTranslation;

export default fr_datetime;
