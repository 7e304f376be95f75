// French: the texts of the script language (parser errors in the editor) and the script's live
// status on /script, loaded with the pages.
import type { NamespaceScriptLangTranslation } from '../../i18n-types.ts';

const fr_scriptLang = {
  at: 'Ligne {line}, colonne {column} : {message}',
  problems: '{count} erreur{{s}} dans le script : il ne peut être enregistré ni exécuté avant leur correction.',
  noProblems: 'Aucune erreur dans le script.',
  codes: {
    unknown_statement: '« {word} » n’est pas une instruction : utilisez read, write, file, append ou send.',
    outside_section: 'Une instruction doit suivre une section : [init], [cycle N] ou [on FLAG].',
    unknown_section: '« {section} » n’est pas une section : utilisez [init], [cycle N] ou [on FLAG].',
    duplicate_section: 'Cette section existe déjà (ligne {first}).',
    cycle_range: 'Le cycle doit être un nombre entier de secondes de {min} à {max}.',
    bad_flag: '« {flag} » n’est pas un relais : écrivez R, jusqu’à 3 chiffres et un chiffre hexadécimal (p. ex. R10A).',
    bad_area: '« {area} » n’est pas une zone : utilisez {allowed}.',
    bad_address: 'Adresse non valide : un nombre entier de 0 à {max} dans {area}, la valeur à l’intérieur de la zone.',
    read_only_area: 'La zone {area} contient les entrées de l’automate : elle ne peut pas être écrite.',
    bad_type: '« {type} » n’est pas un type : utilisez {allowed}.',
    bad_name: '« {name} » n’est pas un nom valide : une lettre d’abord, puis lettres, chiffres et soulignés, {max} caractères au plus.',
    bad_value: '« {value} » n’est ni un nombre ni un nom.',
    value_range: 'La valeur ne tient pas dans le type {type} ({min} – {max}, nombres entiers sauf REAL).',
    unknown_name: 'Aucune instruction read ne définit « {name} ».',
    bad_file_name:
      '« {name} » n’est pas un nom de fichier : une lettre, puis lettres, chiffres, « _ », « - » ou marques de date, terminé par .csv, {max} caractères au plus une fois la date insérée.',
    bad_file_placeholder: '« {placeholder} » n’est pas une marque de date ou d’heure d’un nom de fichier : utilisez {allowed}.',
    no_file: 'append a besoin d’une instruction file dans le script.',
    syntax: 'L’instruction est incomplète ou a une partie de trop : voir les instructions du script par défaut.',
    too_many_lines: 'Le script est trop long : {max} lignes au plus.',
    too_many_names: 'Trop de noms : {max} au plus.',
    too_many_values: 'Trop de valeurs sur une ligne : {max} au plus.',
  },
  status: {
    title: 'État du script',
    off: 'Le script n’est pas activé.',
    state: 'État',
    states: { off: 'arrêté', running: 'en cours', refused: 'refusé (erreurs dans le script)', error: 'arrêté (fichier illisible)' },
    section: 'Section',
    lastRun: 'Dernière exécution',
    duration: 'Durée',
    never: 'pas encore',
    runs: 'Exécutions',
    overruns: 'Dépassements',
    lastError: 'Dernière erreur',
    none: 'aucune',
    line: 'ligne {line}',
  },
} satisfies NamespaceScriptLangTranslation;

export default fr_scriptLang;
