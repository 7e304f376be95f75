// French: the texts of the backup and restore page (/backuprestore), loaded with the pages.
import type { NamespaceBackupTranslation } from '../../i18n-types.ts';

const fr_backup = {
  backupTitle: 'Sauvegarde',
  backupIntro:
    'Enregistre tous les paramètres, les certificats, les fichiers du serveur HTTP, les scripts et les fichiers de configuration du journal de l’appareil dans un fichier .i4csettings.',
  password: 'Mot de passe de sauvegarde',
  confirmPassword: 'Confirmer le mot de passe',
  rules: {
    chars: '{min}\u00a0–\u00a0{max} caractères',
    upper: 'une majuscule',
    lower: 'une minuscule',
    digit: 'un chiffre',
    special: 'un caractère spécial',
  },
  mismatch: 'Les deux mots de passe ne sont pas identiques.',
  noPasswordWarning:
    'Un mot de passe est recommandé. Sans mot de passe, la sauvegarde n’est pas chiffrée et ne contient aucun mot de passe\u00a0: la restauration conserve les mots de passe que l’appareil a alors.',
  download: 'Télécharger la sauvegarde',
  backupDone: 'Sauvegarde {name} téléchargée.',
  backupFailed: 'Échec de la récupération du fichier de sauvegarde\u00a0: {reason}',
  restoreTitle: 'Restauration',
  restoreIntro:
    'Remplace tous les paramètres, certificats et fichiers de l’appareil par ceux d’un fichier de sauvegarde. Le fichier est d’abord entièrement vérifié\u00a0: en cas de problème, rien ne change.',
  file: 'Fichier de sauvegarde (.i4csettings)',
  wrongType: 'Choisissez un fichier {ext}.',
  restorePasswordHint: 'Nécessaire seulement si la sauvegarde a été faite avec un mot de passe.',
  restore: 'Restaurer',
  confirmTitle: 'Restaurer les paramètres\u00a0?',
  confirmText: 'Tous les paramètres, certificats et fichiers de l’appareil seront remplacés par ceux de {name}.',
  restoreDone: 'Les paramètres ont été restaurés.',
  restoreFailed: 'Échec de la restauration des paramètres\u00a0: {reason}',
  reasons: {
    not_a_backup: 'le fichier n’est pas une sauvegarde de paramètres',
    other_product: 'la sauvegarde appartient à un autre produit',
    newer_version: 'la sauvegarde provient d’une version plus récente\u00a0; mettez d’abord le firmware à jour',
    unknown_version: 'les sauvegardes de cette version ne peuvent pas être restaurées',
    damaged: 'le fichier est tronqué ou endommagé',
    password_required: 'la sauvegarde est protégée\u00a0: saisissez son mot de passe',
    wrong_password: 'le mot de passe n’est pas correct',
    content: 'le contenu de la sauvegarde est illisible',
    invalid_settings: 'la sauvegarde contient des paramètres non valides',
    too_large: 'le fichier est trop volumineux',
  },
  readOnly: 'Seul l’administrateur peut sauvegarder et restaurer les paramètres.',
} satisfies NamespaceBackupTranslation;

export default fr_backup;
