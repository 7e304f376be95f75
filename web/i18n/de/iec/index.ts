// German: the IEC 60870-5-104 page (/iec).
import type { NamespaceIecTranslation } from '../../i18n-types.ts';

const de_iec = {
  server: 'Server',
  plc: 'SPS',
  connections: 'Verbindungen',
  connection: 'Verbindung {n}',
  buffers: 'SPS-Puffer',
  protocol: 'Protokoll',
  clients: 'Clients',
  add: 'Verbindung hinzufügen',
  remove: 'Verbindung entfernen',
  count: '{count} von {max} {{max:Verbindung|Verbindungen}} (Redundanzgruppe)',
  none: 'Keine Verbindung: Eine Leitstelle kann sich nicht verbinden.',
  structured: 'Strukturiert: {hi}.{lo}',
  footprint: 'Belegt {area}{first}\u00a0–\u00a0{area}{last} ({count} Register).',
  unencrypted: 'IEC 60870-5-104 ist unverschlüsselt: nur in einem geschützten Netz verwenden.',
} satisfies NamespaceIecTranslation;

export default de_iec;
