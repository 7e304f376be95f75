// The routes of spec §2: path, menu group, the configuration sections a page edits, and whether it
// is reachable from the quick access buttons. Page components are attached in router/routes.tsx.

export const PAGE_IDS = [
  'info',
  'health',
  'com',
  'port',
  'wizard_com',
  'datetime',
  'monitor',
  'watch',
  'mqtt',
  'sql',
  'db',
  'ftp',
  'httpc',
  'smtp',
  'rest',
  'iec',
  'script',
  'tls',
  'tlsclient',
  'tlsserver',
  'log',
  'graphs',
  'backuprestore',
  'firmware',
  'legal',
  'users',
] as const;
export type PageId = (typeof PAGE_IDS)[number];

export interface PageDef {
  id: PageId;
  path: string;
  group: 'system' | 'plc' | 'apps';
  /** configuration sections edited on the page (save, reset and the unsaved-changes check use them) */
  sections: readonly string[];
  quick?: boolean;
  /** a page that belongs to another one in the menu (the TLS client and server parts) */
  parent?: PageId;
  /** listed in the menu for administrators only (the page itself says so to the user role) */
  adminOnly?: boolean;
  /**
   * the page stores its work through its own controls (the wizard's Finish): the page bar has no
   * Reset or Save, which would act on the sections behind the page's back
   */
  ownControls?: boolean;
}

export const PAGES: readonly PageDef[] = [
  { id: 'info', path: '/info', group: 'system', sections: [], quick: true },
  { id: 'health', path: '/health', group: 'system', sections: [] },
  { id: 'com', path: '/com', group: 'plc', sections: ['pew'], quick: true },
  { id: 'port', path: '/port', group: 'plc', sections: ['pew_redirect'], quick: true },
  { id: 'wizard_com', path: '/wizard_com', group: 'plc', sections: ['pew', 'pew_redirect'], quick: true, ownControls: true },
  { id: 'datetime', path: '/datetime', group: 'plc', sections: ['pew_rtc'] },
  { id: 'monitor', path: '/monitor', group: 'plc', sections: [] },
  // the user's own list, saved by the page itself (no configuration section)
  { id: 'watch', path: '/watch', group: 'plc', sections: [] },
  { id: 'mqtt', path: '/mqtt', group: 'apps', sections: ['pew_mqtt'] },
  { id: 'sql', path: '/sql', group: 'apps', sections: ['pew_sql'] },
  { id: 'db', path: '/db', group: 'apps', sections: ['pew_nosql'] },
  { id: 'ftp', path: '/ftp', group: 'apps', sections: ['pew_ftpc'] },
  { id: 'httpc', path: '/httpc', group: 'apps', sections: ['pew_httpc'] },
  { id: 'smtp', path: '/smtp', group: 'apps', sections: ['pew_email'] },
  { id: 'rest', path: '/rest', group: 'apps', sections: ['pew_api'] },
  { id: 'iec', path: '/iec', group: 'apps', sections: ['pew_60870'] },
  { id: 'script', path: '/script', group: 'apps', sections: ['pew_script', 'script_file'] },
  { id: 'tls', path: '/tls', group: 'apps', sections: ['pew_tls'] },
  { id: 'tlsclient', path: '/tlsclient', group: 'apps', sections: ['pew_tls'], parent: 'tls' },
  { id: 'tlsserver', path: '/tlsserver', group: 'apps', sections: ['pew_tls'], parent: 'tls' },
  { id: 'log', path: '/log', group: 'apps', sections: ['pew_log'], quick: true },
  { id: 'graphs', path: '/graphs', group: 'apps', sections: [] },
  { id: 'backuprestore', path: '/backuprestore', group: 'system', sections: [] },
  { id: 'firmware', path: '/firmware', group: 'system', sections: [] },
  { id: 'legal', path: '/legal', group: 'system', sections: [] },
  { id: 'users', path: '/users', group: 'system', sections: [], adminOnly: true },
];

/** '/' shows the information page (spec §2: "/ and /info"). */
export function pageOf(path: string): PageDef | undefined {
  const p = path === '/' || path === '' ? '/info' : path.replace(/\/+$/, '');
  return PAGES.find((d) => d.path === p);
}

/** The page where a section is edited (its own page, not a sub-page or the wizard). */
export function pageOfSection(key: string): PageDef | undefined {
  return PAGES.find((d) => d.sections.includes(key) && !d.parent && d.id !== 'wizard_com');
}
