// German: the TLS bridging pages (/tls, /tlsclient, /tlsserver).
import type { NamespaceTlsTranslation } from '../../i18n-types.ts';

const de_tls = {
  client: 'TLS-Client',
  server: 'TLS-Server',
  settings: 'Einstellungen',
  clientFlow: 'Klartext-Port {port} → TLS {host}:{dest}',
  serverFlow: 'TLS-Port {port} → {host}:{dest}',
  noHost: '(kein Host)',
  newSetups: 'Für neue Installationen TLS 1.2 oder 1.3 wählen.',
  status: 'Status',
  state: 'Zustand',
  states: {
    listening: 'empfangsbereit auf Port {port}',
    closed: 'nicht empfangsbereit (Port {port})',
    stopped: 'von der SPS gestoppt',
    disabled: 'nicht aktiviert',
  },
  stats: {
    connections: 'Offene Verbindungen',
    accepted: 'Angenommen',
    refused: 'Abgewiesen',
    tlsFailures: 'TLS-Fehler',
    errors: 'Fehler',
    bytesIn: 'Bytes zum Ziel',
    bytesOut: 'Bytes zurück zu den Clients',
    faults: 'Abgefangene Fehler',
  },
} satisfies NamespaceTlsTranslation;

export default de_tls;
