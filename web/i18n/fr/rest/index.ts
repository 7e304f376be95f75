// French: the texts of the REST page (/rest), loaded with the pages.
import type { NamespaceRestTranslation } from '../../i18n-types.ts';

const fr_rest = {
  files: 'Fichiers du serveur HTTP',
  filesHint: 'Fichiers chargés pour le serveur HTTP. Serveur HTTP activé, chacun est servi à http(s)://<appareil>:<port>/<nom> ; index.html aussi à /.',
  refresh: 'Actualiser',
  listFailed: 'Échec de lecture du fichier ; aucun fichier trouvé.',
  none: 'Aucun fichier chargé.',
  checkAll: 'Sélectionner tous les fichiers',
  check: 'Sélectionner {name}',
  name: 'Nom',
  size: 'Taille',
  remove: 'Supprimer la sélection ({count})',
  removeTitle: 'Supprimer des fichiers HTTP',
  removeText: 'Supprimer {count} fichier{{s}} du serveur HTTP ? Cette action est irréversible.',
  removeYes: 'Supprimer',
  removed: '{count} fichier{{s}} supprimé{{s}}.',
  certNote:
    'Avec le chiffrement, le serveur présente le certificat serveur chargé (server.pem ou server.crt) et sa clé (key.pem ou key.key). Un certificat nouvellement chargé est utilisé en quelques secondes.',
  stateOff: 'Le port REST est fermé : ni l’API ni le serveur HTTP n’est activé dans les paramètres enregistrés.',
  stateListening: 'À l’écoute sur le port {port} ({scheme}).',
  stateNoCert: 'Pas à l’écoute : HTTPS nécessite le certificat serveur et la clé chargés.',
  stateFailed: 'Pas à l’écoute sur le port {port} : {detail}',
  faults: 'Requêtes en échec fermées avec une erreur (défauts contenus) : {count}',
} satisfies NamespaceRestTranslation;

export default fr_rest;
