// Every language's complete dictionary, all parts, for tests. The console loads its texts in parts
// (web/i18n/translate.ts puts English's common texts alone into the shared table), and the
// generated loadAllLocales() skips a language already in that table: a test file that runs after a
// console test in the same worker would otherwise see English without its parts.

import { loadAllLocales } from '../../web/i18n/i18n-util.sync.ts';
import { loadedLocales, locales } from '../../web/i18n/i18n-util.ts';

export function loadFullLocales(): typeof loadedLocales {
  for (const l of locales) delete loadedLocales[l];
  loadAllLocales();
  return loadedLocales;
}
