// French: the TLS bridging pages (/tls, /tlsclient, /tlsserver).
import type { NamespaceTlsTranslation } from '../../i18n-types.ts';

const fr_tls = {
  client: 'Client TLS',
  server: 'Serveur TLS',
  settings: 'Paramètres',
  clientFlow: 'Port en clair {port} → TLS {host}:{dest}',
  serverFlow: 'Port TLS {port} → {host}:{dest}',
  noHost: '(aucun hôte)',
  newSetups: 'Pour une nouvelle installation, choisissez TLS 1.2 ou 1.3.',
  status: 'État',
  state: 'État',
  states: { listening: 'à l’écoute sur le port {port}', closed: 'pas à l’écoute (port {port})', stopped: 'arrêté par l’automate', disabled: 'non activé' },
  stats: {
    connections: 'Connexions ouvertes',
    accepted: 'Acceptées',
    refused: 'Refusées',
    tlsFailures: 'Échecs TLS',
    errors: 'Erreurs',
    bytesIn: 'Octets vers la destination',
    bytesOut: 'Octets retour vers les clients',
    faults: 'Défauts contenus',
  },
} satisfies NamespaceTlsTranslation;

export default fr_tls;
