// French: the system services list on /info, loaded with the services part.
import type { NamespaceServicesTranslation } from '../../i18n-types.ts';

const fr_services = {
  intro: 'Activez ou désactivez les services système de l’appareil, puis enregistrez. Chaque modification est consignée dans le journal d’audit.',
  readOnly: 'Seul l’administrateur peut modifier les services.',
  save: 'Enregistrer les services',
  saved: 'Services enregistrés.',
  saveFailed: 'Échec de l’enregistrement des services\u00a0: {reason}',
  failedService: 'L’appareil a refusé de modifier {service}.',
  changed: 'non enregistré',
  consoleCert: {
    title: 'Certificat de la console (HTTPS)',
    off: 'La console est servie en HTTP non chiffré (paramètre par défaut du simulateur).',
    source: 'Origine',
    generated: 'généré sur cet appareil (auto-signé)',
    uploaded: 'chargé',
    fingerprint: 'Empreinte SHA-256',
    names: 'Noms',
    valid: 'Validité',
    refused: 'Le certificat chargé n’est pas utilisé : {reason}',
    note: 'Comparez l’empreinte avec celle qu’affiche votre navigateur avant de faire confiance au certificat. Chargez un certificat et sa clé pour le remplacer ; supprimez-les pour revenir au certificat généré.',
  },
  desc: {
    avahi_daemon: 'Annonce l’appareil sur le réseau local (mDNS/Zeroconf) pour qu’on le trouve par son nom.',
    x11vnc: 'Affichage à distance de l’écran de l’appareil par VNC.',
    snmpd: 'Agent SNMP de supervision réseau\u00a0; les communautés v1/v2c circulent en clair.',
    cloud: 'Accès à distance (VPN) par le service cloud.',
    sshd: 'Shell sécurisé pour la maintenance depuis le réseau.',
    ntpd: 'Règle l’horloge de l’appareil sur des serveurs de temps (NTP).',
    firewall: 'Bloque les connexions vers les ports qu’aucun paramètre n’a ouverts.',
    router: 'Achemine le trafic entre les interfaces réseau de l’appareil.',
    bridge: 'Réunit deux interfaces réseau en un seul réseau.',
    fastboot: 'Démarre plus vite en sautant les contrôles au démarrage.',
    autorun: 'Lance des programmes depuis une clé USB dès qu’elle est branchée.',
    dhcp_server: 'Attribue des adresses IP aux appareils d’une interface réseau.',
    usb_device_restore: 'Restaure les paramètres depuis une clé USB dès qu’elle est branchée.',
  },
  reset: {
    title: 'Réinitialisation d’usine',
    intro: 'Remet l’appareil dans l’état de sa sortie d’usine. Faites d’abord une sauvegarde si vous risquez d’avoir encore besoin des paramètres.',
    lost: 'Perdus\u00a0: tous les paramètres de toutes les pages (retour aux valeurs par défaut), les services (retour à leurs valeurs par défaut), tous les utilisateurs et leurs mots de passe, les certificats et clés chargés, les fichiers du serveur HTTP, les fichiers de script, les fichiers de configuration du journal, les fichiers journaux de la mémoire interne et temporaire et le jeton de collecte Prometheus. Tout le monde est déconnecté.',
    kept: 'Conservés\u00a0: le journal d’audit et les fichiers d’une clé USB.',
    button: 'Réinitialisation d’usine…',
    confirmTitle: 'Réinitialiser l’appareil à l’état d’usine\u00a0?',
    confirmText: 'C’est irréversible. Ensuite, vous créez un nouvel administrateur.',
    yes: 'Tout supprimer et réinitialiser',
    no: 'Annuler',
    failed: 'La réinitialisation a échoué\u00a0: {reason}',
    done: 'L’appareil est réinitialisé. Créez l’administrateur.',
  },
} satisfies NamespaceServicesTranslation;

export default fr_services;
