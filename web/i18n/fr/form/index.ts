// French: the wording shared by the settings forms (a label with its message, ranges, register footprints, where a problem is); loaded with the settings pages, the login pages and the services block of /info.
import type { NamespaceFormTranslation } from '../../i18n-types.ts';

const fr_form = {
  labelled: '{label}\u00a0: {text}',
  range: 'Plage {min}\u00a0–\u00a0{max}',
  /** the notices of a save and a reset (shown on the settings pages, which load this part) */
  notice: {
    saved: 'Paramètres enregistrés.',
    saveFailed: 'Échec de l’enregistrement des paramètres.',
    nothingToSave: 'Rien à enregistrer : aucun paramètre n’a été modifié.',
    resetDone: 'Les valeurs par défaut sont en place. Enregistrez pour les appliquer.',
    resetSame: 'Les valeurs par défaut sont en place : ce sont déjà les paramètres enregistrés.',
  },
  footprint: 'Occupe DT{first}\u00a0–\u00a0DT{last} ({count} registre{{s}}).',
  multipleRegisters: 'Plusieurs services utilisent les mêmes registres de l’automate. Modifiez les registres de commande pour qu’ils ne se chevauchent pas.',
  place: {
    thread: 'redirection {n}',
    restriction: 'restriction {n}',
    connection: 'connexion {n}',
    point: 'point de données {n}',
    header: 'en-tête {n}',
    entry: 'entrée {n}',
  },
  problems: 'À corriger :',
  problem: '{place} : {message}',
} satisfies NamespaceFormTranslation;

export default fr_form;
