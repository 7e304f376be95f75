// French: the texts of the FTP send status on /ftp, loaded with the pages.
import type { NamespaceFtpStatusTranslation } from '../../i18n-types.ts';

const fr_ftpStatus = {
  title: 'État de l’envoi',
  off: 'L’envoi FTP n’est pas activé.',
  plc: 'Bloc de commande de l’automate',
  plcOk: 'joignable',
  plcDown: 'non joignable',
  state: 'État',
  states: { idle: 'au repos', running: 'en cours', done: 'terminé', error: 'erreur' },
  code: 'code d’erreur {number}',
  localDir: 'Répertoire local',
  nextCycle: 'Prochain envoi du cycle',
  noCycle: 'pas de cycle de transmission',
  retryAt: 'Prochaine tentative',
  noRetry: 'aucune en attente',
  lastSend: 'Dernier envoi',
  never: 'aucun pour l’instant',
  triggers: { plc: 'à la demande de l’automate', cycle: 'par le cycle de transmission', script: 'par send du script' },
  files: 'Fichiers envoyés',
  bytes: 'Octets',
  failed: 'Non envoyés',
  held: 'Retenus (le journal écrit encore)',
  deleted: 'Supprimés après l’envoi',
  renamed: 'Envoyés sous un nom numéroté (le leur était pris)',
  attempts: 'Tentatives',
  error: 'Erreur',
  none: 'aucun',
  codes: {
    unknown_host: 'le nom du serveur (ou du proxy) ne se résout pas',
    refused: 'rien n’écoute, ou la connexion a été coupée pendant l’envoi',
    timeout: 'pas de réponse en 10 s',
    tls: 'échec de la négociation TLS\u00a0: certificat non approuvé ou version refusée',
    auth_failed: 'utilisateur ou mot de passe refusé',
    server_refused: 'le serveur a refusé le répertoire ou un fichier',
    local: 'le répertoire local manque ou n’est pas monté, ou un fichier ne peut être lu ou renommé',
    other: 'autre erreur (réponse non comprise, envoi arrêté par une modification des paramètres)',
  },
} satisfies NamespaceFtpStatusTranslation;

export default fr_ftpStatus;
