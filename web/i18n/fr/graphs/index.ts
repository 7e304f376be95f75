// French: the texts of the trend graphs page (/graphs), loaded with the pages.
import type { NamespaceGraphsTranslation } from '../../i18n-types.ts';

const fr_graphs = {
  intro:
    'Choisissez un ou plusieurs fichiers journaux\u00a0: chaque fichier a son propre graphique\u00a0; un clic sur une entrée de la légende masque ou affiche sa série.',
  zoomMouse: 'Zoomez avec Ctrl+glisser ou la molette de la souris sur un graphique.',
  zoomTouch:
    'Zoomez avec deux doigts sur un graphique (écartez-les pour agrandir)\u00a0; glissez latéralement avec un doigt pour vous déplacer sur l’axe du temps.',
  files: 'Fichiers journaux',
  storages: { intern: 'Mémoire interne', usb: 'USB', temp: 'Mémoire temporaire' },
  notMounted: 'Non monté.',
  noFiles: 'Aucun fichier trouvé.',
  refresh: 'Actualiser la liste',
  size: '{kb} Ko',
  chartType: 'Type de graphique',
  types: { line: 'Ligne', bar: 'Barres', stacked: 'Barres empilées' },
  none: 'Choisissez un fichier journal pour voir son graphique.',
  loading: 'Chargement…',
  readFailed: 'Échec de la lecture du fichier.',
  invalidFormat: 'Format de données invalide dans le graphique (date, heure, séparateur).',
  tooLarge: 'Le fichier est trop volumineux pour un graphique : {size} Mo, au plus {max} Mo.',
  noNumbers: 'Le fichier n’a aucune colonne de nombres à tracer.',
  textColumns: 'Non tracé (texte) : {names}',
  skipped: 'Lignes omises (pas des lignes de données) : {n}',
  torn: 'La dernière ligne est incomplète (encore en cours d’écriture ?) et a été omise.',
  range: 'du {from} au {to}',
  lines: 'Lignes de données : {n}',
  resetZoom: 'Réinitialiser le zoom',
  legend: 'Séries (cliquer pour masquer ou afficher)',
  chart: 'Graphique de tendance de {name}',
} satisfies NamespaceGraphsTranslation;

export default fr_graphs;
