// French: the texts of the ports page (/port) and the restriction editor, loaded with the pages.
import type { NamespacePortTranslation } from '../../i18n-types.ts';

const fr_port = {
  intro:
    'Chaque redirection ouvre un port TCP pour des clients et transmet leurs requêtes à une interface, limitées aux mots de l’automate que ses restrictions autorisent. Sans restriction, aucun accès\u00a0; Bloqué l’emporte sur une autorisation.',
  overview: 'Vue d’ensemble',
  overviewHint:
    'Une ligne par redirection\u00a0; son nom mène à ses paramètres et restrictions plus bas. L’état et les compteurs sont ceux de la redirection enregistrée.',
  columns: { thread: 'Redirection', port: 'Port', interface: 'Interface', state: 'État', restrictions: 'Restrictions' },
  threadN: 'Redirection {n}',
  unsaved: 'non enregistrée',
  noThreads: 'Aucun port n’est ouvert. Ajoutez une redirection pour en ouvrir un.',
  addThread: 'Ajouter une redirection',
  removeThread: 'Supprimer la redirection',
  thread: 'Redirection {n} · port {port}',
  allAddresses: 'Toutes les adresses de clients sont acceptées (0.0.0.0\u00a0–\u00a00.0.0.0).',
  gatewayNote: 'Passerelle Modbus/TCP\u00a0: chaque restriction apparaît dans sa table Modbus à partir de son début Modbus.',
  restrictions: 'Restrictions',
  restrictionN: 'restriction {n}',
  noRestrictions: 'Pas encore de restriction\u00a0: les clients de ce port n’atteignent aucun mot de l’automate.',
  addRestriction: 'Ajouter une restriction',
  removeRestriction: 'Supprimer',
  areaRange: 'Mots {area} 0\u00a0–\u00a0{max}',
  range: 'Plage',
  modbusRange: 'Modbus {first}\u00a0–\u00a0{last} ({unit})',
  words: 'registres',
  bits: 'bits',
  status: 'État du port',
  unavailable: 'État indisponible',
  notSaved: 'Pas encore enregistré\u00a0: pas d’état.',
  listening: 'à l’écoute sur {port}',
  closed: 'pas à l’écoute ({port})',
  stats: {
    clients: 'Clients',
    requests: 'Requêtes',
    refused: 'Refusés',
    errors: 'Erreurs',
    bytesIn: 'Octets reçus',
    bytesOut: 'Octets envoyés',
    faults: 'Défauts contenus',
  },
  test: 'Test de connexion',
  testing: 'Test en cours…',
  testNote: 'Le test utilise les paramètres enregistrés.',
  testOk: 'L’automate a répondu par ce port.',
  testFailed: 'Échec du test de connexion.',
  reasons: {
    not_listening: 'Le port n’est pas à l’écoute.',
    refused: 'Le port a refusé la connexion.',
    no_answer: 'L’automate n’a pas répondu.',
    error_answer: 'L’automate a répondu par une erreur.',
  },
  request: 'Requête envoyée',
  raw: 'Réponse brute',
  nothing: 'rien',
} satisfies NamespacePortTranslation;

export default fr_port;
