// English: the IEC 60870-5-104 page (/iec).
import type { BaseTranslation } from '../../i18n-types.ts';

const en_iec = {
  server: 'Server',
  plc: 'PLC',
  connections: 'Connections',
  connection: 'Connection {n}',
  buffers: 'PLC buffers',
  protocol: 'Protocol',
  clients: 'Clients',
  add: 'Add connection',
  remove: 'Remove connection',
  count: '{count} of {max} connection{{s}} (redundancy group)',
  none: 'No connection: a control centre cannot connect.',
  structured: 'Structured: {hi}.{lo}',
  footprint: 'Uses {area}{first} – {area}{last} ({count} register{{s}}).',
  unencrypted: 'IEC 60870-5-104 is unencrypted: use it only in a protected network.',
} satisfies BaseTranslation;

export default en_iec;
