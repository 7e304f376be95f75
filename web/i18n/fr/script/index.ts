// French: the script file page (/script).
import type { NamespaceScriptTranslation } from '../../i18n-types.ts';

const fr_script = {
  general: 'Général',
  transmission: 'Transmission FTP',
  editor: 'Éditeur de script',
  files: 'Fichiers script',
  loadDefault: 'Charger le script par défaut',
  defaultTitle: 'Charger le script par défaut',
  defaultText: 'Remplacer le texte de l’éditeur par le script par défaut\u00a0?',
  replace: 'Remplacer',
  keep: 'Garder',
  write: 'Écrire le fichier',
  written: 'Le fichier script {name} a été écrit.',
  download: 'Télécharger',
  upload: 'Charger un fichier .cfg',
  uploaded: 'Chargement réussi\u00a0: {name}.',
  uploadFailed: 'Échec du chargement du ou des fichiers.',
  use: 'Utiliser',
  active: 'actif',
  noFiles: 'Aucun fichier trouvé.',
  readFailed: 'Échec de la lecture du fichier.',
  size: '{size} octets',
  count: '{count} sur {max} octets',
} satisfies NamespaceScriptTranslation;

export default fr_script;
