// The files a deep link to a framed page needs (device/model/first-frame.ts FRAME_ROUTES), for the
// daemon's `<link rel="modulepreload">` links (device/api/frame-preloads.ts): the page's chunk with
// its static imports, the parts of the dictionary it loads in each language, and for a settings page
// the configuration model and the forms' styles; without what index.html loads already. The browser
// then fetches them all at once with the page, instead of in two waves after the entry has run.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FramePreloads } from '../device/model/first-frame.ts';
import { type Outputs, outputsOfModule, staticClosure } from './closure.ts';

/** the modules a settings page (one with the field texts) loads with its chunk (web/router/routes.tsx `page`) */
const FORM_MODULES = ['state/model-parts.ts', 'styles/forms-sheet.ts'];
/** the module a page with parts of the texts loads them through (web/i18n/translate.ts) */
const TEXT_MODULES = ['i18n/parts.ts'];

export interface PreloadInput {
  outputs: Outputs;
  srcDir: string;
  /** a source file's metafile path */
  metaPath: (abs: string) => string;
  /** an output's path relative to the web folder */
  toOut: (key: string) => string;
  /** each framed page's module and parts of the texts (build/page-texts.ts) */
  pages: ReadonlyMap<string, { module: string; texts: readonly string[] }>;
  routes: readonly string[];
  /** outputs index.html loads already */
  firstLoad: ReadonlySet<string>;
}

export function framePreloads(p: PreloadInput): FramePreloads {
  const files = (module: string): string[] =>
    outputsOfModule(p.outputs, p.metaPath(join(p.srcDir, module)))
      .flatMap((k) => staticClosure(p.outputs, k))
      .filter((k) => k.endsWith('.js') && !p.firstLoad.has(k));
  const unique = (list: string[]) => [...new Set(list)].map(p.toOut);
  const locales = readdirSync(join(p.srcDir, 'i18n'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const out: FramePreloads = {};
  for (const route of p.routes) {
    const page = p.pages.get(route);
    // a framed page not found in the routes' source: its deep links and the idle preloads would lack it
    if (!page) throw new Error(`no page ${route} read from web/router/routes.tsx (build/page-texts.ts)`);
    const common = unique([page.module, ...(page.texts.length > 0 ? TEXT_MODULES : []), ...(page.texts.includes('fields') ? FORM_MODULES : [])].flatMap(files));
    const byLocale: Record<string, string[]> = {};
    for (const l of locales) byLocale[l] = unique(page.texts.flatMap((t) => files(`i18n/${l}/${t}/index.ts`))).filter((f) => !common.includes(f));
    out[route] = { common, locales: byLocale };
  }
  return out;
}
