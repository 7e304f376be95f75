// French: the texts of the COM page (/com) and the link states other pages show, loaded with the pages.
import type { NamespaceComTranslation } from '../../i18n-types.ts';

const fr_com = {
  kinds: { '0': 'RS232', '3': 'RS485/RS232', '1': 'USB', '4': 'mémoire de l’appareil', '5': 'Ethernet' },
  plc: 'Paramètres de l’automate', restart: 'Redémarrage',
  off: 'Non activée : les paramètres sont conservés mais pas utilisés.',
  protocolFixed: 'Modbus (fixe)',
  internalNote: 'La mémoire propre de l’appareil, lue et écrite par Modbus : les registres de maintien {min}\u00a0–\u00a0{max} accueillent vos données.',
  offset: 'Décalage d’adresse', offsetOff: 'Désactivé', offsetOn: 'Utilisé',
  test: 'Test automate', testing: 'Test en cours…', testNote: 'Le test utilise les paramètres enregistrés.',
  testOk: 'L’automate a répondu.', cpu: 'Type de CPU : {name}', cpuUnknown: 'inconnu',
  family: 'Famille', model: 'Modèle', version: 'Version', mode: 'Mode de fonctionnement',
  failed: 'Échec du test automate.',
  reasons: {
    no_answer: 'L’automate n’a pas répondu.', plc_error: 'L’automate a répondu par une erreur.',
    bad_reply: 'La réponse n’a pas pu être comprise.', link_down: 'La liaison avec l’automate est coupée.',
  },
  errorCode: 'Code d’erreur de l’automate {code}.',
  raw: 'Réponse brute', noReply: 'aucune réponse',
  status: 'État de la liaison', unavailable: 'État indisponible',
  states: { disabled: 'désactivée', connecting: 'connexion en cours', up: 'connectée', down: 'pas de connexion', absent: 'absente' },
  baud: '{rate} bauds',
  autobaud: { searching: 'autobaud en recherche', found: 'trouvé par autobaud', failed: 'échec de l’autobaud' },
  stats: {
    requests: 'Requêtes', errors: 'Erreurs', timeouts: 'Délais dépassés', retries: 'Répétitions',
    bytesOut: 'Octets envoyés', bytesIn: 'Octets reçus', busyShare: 'Occupation',
  },
} satisfies NamespaceComTranslation;

export default fr_com;
