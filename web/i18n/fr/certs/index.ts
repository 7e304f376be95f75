// French: the texts of the certificate upload of the service pages, loaded with the pages.
import type { NamespaceCertsTranslation } from '../../i18n-types.ts';

const fr_certs = {
  kinds: { ca: 'Certificat CA', client: 'Certificat client', server: 'Certificat serveur', key: 'Clé privée' },
  choose: 'Charger',
  allowed: 'Extensions {ext}',
  none: 'Aucun certificat chargé.',
  uploaded: 'Chargement réussi\u00a0: {name}.',
  uploadFailed: 'Échec du chargement du ou des fichiers.',
  removed: 'Suppression réussie\u00a0: {name}.',
  removeFailed: 'Échec de la suppression des certificats.',
  deleteTitle: 'Supprimer le certificat',
  deleteText: 'Supprimer {name}\u00a0? Un service qui l’utilise ne pourra plus se connecter tant qu’un autre n’est pas chargé.',
  delete: 'Supprimer',
  keep: 'Garder',
  file: 'Fichier',
  subject: 'Sujet',
  issuer: 'Émetteur',
  validTo: 'Valable jusqu’au',
  expired: 'expiré',
  key: 'Clé privée ({type})',
  request: 'Demande de certificat',
  invalid: 'Fichier de certificat non valide',
  chain: '{count} certificat{{s}}',
  // the console's own listeners on /info (beside its certificate), with their contained faults
  listeners: 'Ports de la console',
  listenerHttps: 'Port HTTPS {port}',
  listenerHttp: 'Port HTTP {port}',
  listenerRedirect: 'Port HTTP {port} (redirige vers HTTPS)',
  listenerFaults: '{count} connexion{{s}} terminée{{s}} par un défaut',
} satisfies NamespaceCertsTranslation;

export default fr_certs;
