// English: the TLS bridging pages (/tls, /tlsclient, /tlsserver).
import type { BaseTranslation } from '../../i18n-types.ts';

const en_tls = {
  client: 'TLS client',
  server: 'TLS server',
  settings: 'Settings',
  clientFlow: 'Plain port {port} → TLS {host}:{dest}',
  serverFlow: 'TLS port {port} → {host}:{dest}',
  noHost: '(no host)',
  newSetups: 'For new setups choose TLS 1.2 or 1.3.',
  status: 'Status',
  state: 'State',
  states: { listening: 'listening on port {port}', closed: 'not listening (port {port})', stopped: 'stopped by the PLC', disabled: 'not enabled' },
  stats: {
    connections: 'Open connections',
    accepted: 'Accepted',
    refused: 'Refused',
    tlsFailures: 'TLS failures',
    errors: 'Errors',
    bytesIn: 'Bytes to the destination',
    bytesOut: 'Bytes back to the clients',
    faults: 'Faults contained',
  },
} satisfies BaseTranslation;

export default en_tls;
