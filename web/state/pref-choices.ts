// The choices the console remembers in the browser, apart from web/state/prefs.ts (which applies
// them to the document when imported), so that tests can list them.

export const THEMES = ['default', 'darcula', 'dracula', 'material-ocean', 'eclipse'] as const; // spec §1
export type Theme = (typeof THEMES)[number];
export const FILTERS = ['all', 'enabled', 'disabled'] as const; // spec §2 view filter
export type Filter = (typeof FILTERS)[number];
