// French: the texts of the firmware page (/firmware), loaded with the pages.
import type { NamespaceFirmwareTranslation } from '../../i18n-types.ts';

const fr_firmware = {
  title: 'Mise à jour du firmware',
  installTitle: 'Installer une nouvelle version',
  nowRunning: 'Mise à jour installée : l’appareil fonctionne maintenant avec la version {version} (avant : {from}).',
  stillRunning: 'L’appareil fonctionne toujours avec la version {version} : la mise à jour n’a pas été installée. La page du micrologiciel indique pourquoi.',
  intro:
    'Installe une image de firmware signée. Choisissez ensemble le paquet .zip et son fichier .md5 ; les deux sont entièrement vérifiés avant toute modification de l’appareil.',
  readOnly: 'Seul l’administrateur peut mettre à jour le firmware.',
  running: 'Version en cours',
  minimums: 'Requis sur l’appareil',
  minimumsValue: 'application {app}, BSP {bsp}, runtime HMI {hmi}',
  files: 'Fichiers de mise à jour (.zip et .md5)',
  filesHint: 'Sélectionnez les deux fichiers ensemble.',
  start: 'Mettre à jour',
  confirmTitle: 'Mettre à jour le firmware\u00a0?',
  confirmText: 'L’appareil installe {name} et redémarre. Une fois lancée, la mise à jour ne peut pas être annulée.',
  progressTitle: 'Mise à jour en cours',
  states: { upload: 'Envoi', updating: 'Mise à jour', rebooting: 'Redémarrage' },
  noCancel: 'La mise à jour ne peut pas être annulée. La page se recharge dès que l’appareil répond à nouveau.',
  refused: 'Échec de la mise à jour\u00a0: {reason}',
  timeout:
    'Échec de la mise à jour. Le délai de 2 minutes du navigateur a probablement expiré. La page réessaie dans environ 90 s\u00a0; si le problème persiste, contactez le support.',
  retryIn: 'Rechargement dans {seconds} s.',
  lastOk: 'La version {version} a été installée (avant\u00a0: {from}).',
  lastFailed: 'La version {version} n’a pas démarré\u00a0; la version {from} fonctionne de nouveau.',
  reasons: {
    missing_files: 'Des fichiers de mise à jour manquent\u00a0: le paquet .zip et son fichier .md5 doivent être envoyés ensemble.',
    file_type: 'Type de fichier incorrect\u00a0: choisissez un paquet .zip et un fichier .md5.',
    file_name: 'Nom de fichier incorrect\u00a0: le fichier .md5 doit porter le nom du paquet, avec uniquement lettres, chiffres, _ . -.',
    too_large: 'Le fichier est trop volumineux ({max} octets au maximum).',
    md5: 'Le paquet ne correspond pas à son fichier .md5 (endommagé pendant le transfert).',
    archive: 'Le paquet n’est pas une archive sûre ({problem}).',
    signature: 'L’image n’est pas signée par une clé de confiance.',
    content: 'L’image a été modifiée après sa signature ({file}).',
    older: 'L’image est pour une version plus ancienne ({version}) que celle en cours ({running}).',
    incompatible: 'L’image nécessite {kind} {required}\u00a0; l’appareil a {installed}.',
    busy: 'Une mise à jour est déjà en cours\u00a0; elle ne peut pas être annulée.',
    unavailable:
      'Les mises à jour du firmware ne sont pas disponibles\u00a0: le superviseur qui les installe ne tourne pas (dans le simulateur, le lancer avec npm run supervisor).',
    start_failed: 'La nouvelle version n’a pas démarré\u00a0; la version précédente fonctionne de nouveau.',
  },
} satisfies NamespaceFirmwareTranslation;

export default fr_firmware;
