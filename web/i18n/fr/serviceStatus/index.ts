// French: the texts of the live status of the services the PLC drives, on their pages and on /info.
import type { NamespaceServiceStatusTranslation } from '../../i18n-types.ts';

const fr_serviceStatus = {
  title: 'État du service', runTitle: 'Services en fonctionnement',
  runIntro: 'Ce que fait chaque service piloté par l’automate\u00a0; mis à jour toutes les 1,5\u00a0s.',
  off: 'Le service n’est pas activé.',
  state: 'État', since: 'Depuis', plc: 'Bloc de commande de l’automate', plcOk: 'joignable', plcDown: 'non joignable',
  lastSuccess: 'Dernier succès', lastError: 'Dernière erreur', never: 'aucun pour l’instant', none: 'aucune',
  code: 'code d’erreur {number}', queue: 'File d’attente', queueValue: '{waiting} en attente sur {bound}', dropped: 'Abandonnés (file pleine)',
  states: {
    off: 'arrêté', connecting: 'connexion', connected: 'connecté', reconnecting: 'reconnexion', idle: 'au repos',
    running: 'en cours', waiting: 'attend le correspondant', error: 'erreur',
  },
  counters: {
    rows: 'Lignes traitées', written: 'Lignes écrites',
    accepted: 'Connexions relayées', refused: 'Clients refusés', tlsFailures: 'Négociations TLS échouées', errors: 'Erreurs de connexion',
    faults: 'Défauts contenus',
    published: 'Publiés', received: 'Reçus', requests: 'Requêtes', sends: 'Envois', sent: 'Envoyés', failed: 'Échoués',
    runs: 'Exécutions', overruns: 'Dépassements',
  },
  errors: {
    none: 'aucune erreur',
    unknown_host: 'le nom du serveur ne se résout pas',
    refused: 'rien n’écoute à l’adresse, ou la connexion a été coupée',
    timeout: 'pas de réponse à temps',
    tls: 'échec de la négociation TLS\u00a0: certificat non approuvé ou version refusée',
    auth_failed: 'utilisateur ou mot de passe refusé',
    server_refused: 'le serveur a refusé la requête',
    local: 'un fichier de l’appareil ne peut être lu ou écrit',
    other: 'autre erreur (réponse non comprise)',
    plc_area: 'un pointeur hors de la mémoire de l’automate',
    bad_string: 'une chaîne sans terminateur dans sa limite, ou plus longue que sa limite',
    too_large: 'des données ou un corps plus longs que leur limite',
    bad_request: 'une valeur de requête que le service ne connaît pas',
    queue_full: 'la file était pleine\u00a0: sa tâche la plus ancienne a été abandonnée',
    not_connected: 'non connecté\u00a0: la tâche attend dans la file',
    table_mismatch: 'la table a d\'autres colonnes (ou types de champs) que la ligne\u00a0: les lignes attendent',
    bad_value: 'une valeur ou un type que la base de données ne peut pas contenir\u00a0: la ligne n\'est pas écrite',
  },
} satisfies NamespaceServiceStatusTranslation;

export default fr_serviceStatus;
