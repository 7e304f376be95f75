// The dictionary's parts (the namespaces of web/i18n/<language>/<part>/, one chunk per language
// each) are loaded through this module, itself a chunk loaded with the first part: the table of the
// parts' chunks (some 90, each named by its hash: 1.2 KB of gzip) is not part of the first load.
export { importNamespaceAsync } from './i18n-util.async.ts';
