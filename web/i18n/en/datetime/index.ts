// English: the texts of the date and time page (/datetime).
import type { BaseTranslation } from '../../i18n-types.ts';

const en_datetime = {
  sync: 'PLC clock update',
  clock: 'PLC clock',
  status: 'Status',
  running: 'Update',
  yes: 'running',
  no: 'not running',
  synced: 'synchronized',
  notSynced: 'not synchronized',
  lastSync: 'Last update',
  never: 'none yet',
  ok: '{written} written',
  failed: 'failed',
  triggers: { time: 'by time', plc: 'on PLC request', request: 'on request' },
} satisfies BaseTranslation;

export default en_datetime;
