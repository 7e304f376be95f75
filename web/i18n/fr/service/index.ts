// French: the texts of the shared layout of the service pages, loaded with the pages.
import type { NamespaceServiceTranslation } from '../../i18n-types.ts';

const fr_service = {
  general: 'Général',
  specific: 'Connexion',
  certificates: 'Certificats',
  downloads: 'Téléchargements',
  certNote: 'Noms des fichiers de certificat chargés ({ext}) ; laisser vide si non utilisé.',
  headers: {
    header: 'En-tête {n}',
    add: 'Ajouter un en-tête',
    remove: 'Supprimer l’en-tête',
    count: '{count} en-tête{{s}} sur {max}',
    none: 'Aucun en-tête personnalisé : les requêtes ne portent que ceux de l’appareil.',
  },
  test: {
    test: 'Test de connexion',
    testing: 'Test en cours…',
    testNote: 'Utilise les paramètres enregistrés et le serveur configuré.',
    ok: 'Test réussi\u00a0: {peer} ({ms} ms).',
    failed: 'Échec du test\u00a0: {peer}\u00a0: {reason}.',
    steps: {
      resolve: 'Nom d’hôte résolu',
      connect: 'Connecté',
      proxy: 'Via le proxy',
      tls: 'TLS établi',
      login: 'Connecté (identifiants)',
      database: 'Base de données trouvée',
      table: 'Table vérifiée',
      request: 'Requête traitée',
      write: 'Écrit',
      read: 'Relu',
      list: 'Listé',
      send: 'Envoyé',
    },
    failures: {
      unknown_host: 'le nom d’hôte est inconnu',
      refused: 'rien ne répond à cette adresse et ce port',
      timeout: 'pas de réponse à temps',
      tls_untrusted: 'le certificat du serveur n’est pas de confiance',
      tls_version: 'la version TLS a été refusée',
      auth_failed: 'nom d’utilisateur ou mot de passe erroné',
      not_found: 'introuvable sur le serveur',
      peer_error: 'le serveur a signalé une erreur',
      bad_reply: 'la réponse n’a pas été comprise',
      table_mismatch: 'la table existe avec d’autres colonnes que celles des points de données',
    },
  },
  examples: {
    library: 'Bibliothèque automate (exemple)',
    mqtt: 'Exemple MQTT',
    ftp: 'Exemple client FTP',
    sql: 'Exemple SQL',
    httpc: 'Exemple client HTTP',
    email: 'Exemple e-mail',
    rest: 'Exemple REST',
    tls: 'Exemple TLS',
    mongo: 'Exemple MongoDB',
    influx: 'Exemple InfluxDB',
  },
} satisfies NamespaceServiceTranslation;

export default fr_service;
