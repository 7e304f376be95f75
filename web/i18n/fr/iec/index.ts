// French: the IEC 60870-5-104 page (/iec).
import type { NamespaceIecTranslation } from '../../i18n-types.ts';

const fr_iec = {
  server: 'Serveur',
  plc: 'Automate',
  connections: 'Connexions',
  connection: 'Connexion {n}',
  buffers: 'Tampons de l’automate',
  protocol: 'Protocole',
  clients: 'Clients',
  add: 'Ajouter une connexion',
  remove: 'Supprimer la connexion',
  count: '{count} connexion{{s}} sur {max} (groupe de redondance)',
  none: 'Aucune connexion : un centre de conduite ne peut pas se connecter.',
  structured: 'Structurée : {hi}.{lo}',
  footprint: 'Utilise {area}{first}\u00a0–\u00a0{area}{last} ({count} registre{{s}}).',
  unencrypted: 'L’IEC 60870-5-104 n’est pas chiffrée : à utiliser uniquement dans un réseau protégé.',
} satisfies NamespaceIecTranslation;

export default fr_iec;
