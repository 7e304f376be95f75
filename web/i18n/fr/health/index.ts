// French: the texts of the health plots (/health), loaded with the page.
import type { NamespaceHealthTranslation } from '../../i18n-types.ts';

const fr_health = {
  intro: 'La dernière heure, un point toutes les {seconds}\u00a0s.',
  waiting: 'Pas encore de point\u202f: le premier vient {seconds}\u00a0s après le démarrage de l’appareil.',
  links: 'Liaisons automate',
  noLinks: 'Aucune liaison automate n’a fonctionné au cours de la dernière heure.',
  busy: 'Occupation de chaque liaison',
  requests: 'Requêtes de chaque liaison',
  faults: 'Erreurs et délais dépassés de chaque liaison',
  errorsOf: 'Erreurs {link}',
  timeoutsOf: 'Délais dépassés {link}',
  storage: 'Supports de stockage',
  volumes: { internal: 'Mémoire interne', usb: 'Clé USB', temp: 'Mémoire temporaire' },
  freeSpace: 'Espace libre',
  free: '{free} libres sur {total} ({share})',
  low: 'Moins de 10\u202f% libres\u202f: la journalisation s’arrête quand la mémoire manque.',
  dataLogger: 'Enregistreur de données',
  records: 'Relevés écrits',
  daemon: 'Service de l’appareil (démon)',
  cpu: 'Processeur, part d’un cœur',
  memory: 'Mémoire vive',
  rss: 'Mémoire résidente',
  heap: 'Tas JavaScript',
  units: { perSecond: 'par seconde', mb: 'Mo', gb: 'Go' },
  amounts: { mb: '{n}\u00a0Mo', gb: '{n}\u00a0Go' },
  table: { caption: '{title}, dernière heure', series: 'Série', now: 'Maintenant', min: 'Plus bas', max: 'Plus haut' },
  none: 'aucune valeur',
} satisfies NamespaceHealthTranslation;

export default fr_health;
