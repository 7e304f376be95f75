// French online help, one text per page (spec §2), loaded when the help is opened.
import type { NamespaceHelpTranslation } from '../../i18n-types.ts';

const fr_help = {
  info: 'Présente l’appareil : système d’exploitation, réseau, heure, services, applications installées et versions. Des avertissements s’affichent en haut lorsqu’une version est trop ancienne ou qu’un paramètre affaiblit la sécurité. Le journal système ci-dessous se met à jour toutes les 5 secondes.',
  com: 'Un bloc par interface vers l’automate : COM1 (RS232), COM2 (RS485 ou RS232), COM3 (USB), INTERNAL (la mémoire Modbus propre de l’appareil) et COM4 (Ethernet, l’adresse de l’automate sous la forme IP:port). Une interface désactivée conserve ses paramètres.\nL’état de la liaison sous chaque bloc se met à jour toutes les 1,5 secondes : l’état, le débit utilisé (y compris lorsqu’il a été trouvé par autobaud) et les compteurs de requêtes, d’erreurs, de délais dépassés, de répétitions, d’octets et l’occupation de la liaison.\nTest automate demande son type à l’automate avec les paramètres enregistrés de l’interface et affiche le type de CPU et la réponse brute. L’interface doit être activée et enregistrée, et pour TCP son port doit être ouvert. En cas de modifications non enregistrées, une confirmation est demandée.\nParamètres de l’automate : l’interface de commande des services est celle par laquelle MQTT, l’enregistreur de données et les autres services lisent leurs registres de commande ; une interface transparente ne peut pas être utilisée pour cela. L’appareil peut aussi être redémarré par un indicateur de l’automate (R) ou toutes les quelques heures.\nEnregistrer enregistre la page ; Réinitialiser met en place les valeurs par défaut, qui ne sont enregistrées qu’à l’enregistrement.',
  port: 'Ouvrez des ports TCP redirigés vers l’automate et limitez les clients autorisés à se connecter ainsi que les registres de l’automate qu’ils peuvent lire ou écrire.',
  wizard_com: 'Configuration guidée d’une connexion automate, de son port TCP et, en mode avancé, de la passerelle Modbus/TCP et des restrictions.',
  datetime: 'Laissez l’appareil régler l’horloge de l’automate, selon l’heure ou à la demande de l’automate.',
  mqtt: 'Le client MQTT publie les données de l’automate vers un broker et écrit les valeurs reçues dans l’automate.\nGénéral : activez le client et choisissez le bloc de registres de commande par lequel l’automate le pilote (son occupation s’affiche sous le champ).\nConnexion : l’adresse du broker (mqtt://, mqtts://, ws:// ou wss://), les identifiants et la qualité de service. Un mot de passe enregistré s’affiche sous forme d’astérisques ; laissez-les pour le conserver.\nCertificats : noms des fichiers de certificat téléversés pour TLS.\nEnregistrer enregistre la page ; Réinitialiser met en place les valeurs par défaut, qui ne sont enregistrées qu’à l’enregistrement.',
  sql: 'Écrire les données de l’automate dans une base de données SQL (MS SQL, MySQL/MariaDB, PostgreSQL).',
  db: 'Écrire les données de l’automate dans MongoDB ou InfluxDB.',
  ftp: 'Envoyer des fichiers de l’appareil vers un serveur FTP.',
  httpc: 'Envoyer les données de l’automate à un serveur HTTP.',
  smtp: 'Envoyer des e-mails déclenchés par l’automate.',
  rest: 'Permettre à d’autres systèmes de lire et d’écrire les données de l’automate via une API REST, et servir des pages web téléversées.',
  iec: 'Mettre les données de l’automate à disposition d’un centre de conduite via IEC 60870-5-104.',
  script: 'Exécuter un fichier script sur l’appareil.',
  tls: 'Faire passer des connexions en clair par TLS (client) ou accepter du TLS et le retransmettre en clair (serveur).',
  tlsclient: 'La partie client TLS du pont.',
  tlsserver: 'La partie serveur TLS du pont.',
  log: 'Enregistrer les données de l’automate dans des fichiers CSV : fichiers, déclencheurs et points de données.',
  graphs: 'Afficher les fichiers journaux sous forme de courbes de tendance.',
  backuprestore: 'Enregistrer tous les paramètres dans un fichier ou les restaurer à partir d’un fichier.',
  firmware: 'Installer une nouvelle image de firmware.',
  legal: 'Conditions de licence de la console et de ses composants.',
  notfound: 'Cette adresse ne correspond à aucune page. Utilisez le menu.',
} satisfies NamespaceHelpTranslation;

export default fr_help;
