// The `<link rel="modulepreload">` links the daemon gives the console's page for a deep link to
// a framed page (device/model/first-frame.ts FRAME_PRELOADS_FILE, written by build/frame-preloads.ts):
// the page's chunk, its static imports and the parts of the dictionary in the cookie's language, so
// that the browser fetches them with the page, in one wave, instead of once the entry has run and
// again once those have. Only for a signed-in page with a framed route; the built index.html has none.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FRAME_PRELOADS_FILE,
  FRAME_PRELOADS_ID,
  FRAME_ROUTES,
  type FramePreloads,
  type FrameRoute,
  IDLE_PRELOADS_ID,
  PRELOAD_FILE,
} from '../model/first-frame.ts';

const attr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const isList = (v: unknown): v is string[] => Array.isArray(v) && v.every((f) => typeof f === 'string' && PRELOAD_FILE.test(f));

export class FramePreloadLinks {
  private readonly path: string;
  private cached: { stamp: string; preloads: FramePreloads } | undefined;

  constructor(webDir: string) {
    this.path = join(webDir, FRAME_PRELOADS_FILE);
  }

  /** The build's preloads, read again when `npm run build` replaced them; empty without them or when they are not as the build writes them. */
  private async preloads(): Promise<FramePreloads> {
    const info = await stat(this.path).catch(() => undefined);
    if (!info?.isFile()) return {};
    const stamp = `${info.size}:${info.mtimeMs}`;
    if (this.cached?.stamp !== stamp) {
      let preloads: FramePreloads = {};
      try {
        preloads = JSON.parse(await readFile(this.path, 'utf8')) as FramePreloads;
      } catch {
        // a damaged file: no links
      }
      this.cached = { stamp, preloads };
    }
    return this.cached.preloads;
  }

  /** The files for `route` in `locale` (the page's chunk and imports; the texts only in a language the build has). */
  async files(route: FrameRoute, locale: string): Promise<string[]> {
    const all = await this.preloads();
    const entry = Object.hasOwn(all, route) ? all[route] : undefined;
    if (!entry || !isList(entry.common)) return [];
    const texts = entry.locales && Object.hasOwn(entry.locales, locale) ? entry.locales[locale] : undefined;
    return [...entry.common, ...(isList(texts) ? texts : [])];
  }

  /** The files of every framed page but /info (in the first load) and `route` (loaded with the page), by route, in `locale`, less those of `route`. */
  async others(route: FrameRoute | undefined, locale: string): Promise<Partial<Record<FrameRoute, string[]>>> {
    const own = new Set(route ? await this.files(route, locale) : []);
    const all: Partial<Record<FrameRoute, string[]>> = {};
    for (const r of FRAME_ROUTES) {
      const files = r === 'info' || r === route ? [] : (await this.files(r, locale)).filter((f) => !own.has(f));
      if (files.length > 0) all[r] = files;
    }
    return all;
  }
}

/** `data` as a JSON data element with this id, before the end of the body (every `<` escaped). */
const withDataList = (html: string, id: string, data: unknown): string =>
  html.replace('</body>', () => `<script type="application/json" id="${id}">${JSON.stringify(data).replace(/</g, '\\u003c')}</script></body>`);

/** The page with the lists of files, by route, the console preloads when idle (IDLE_PRELOADS_ID, at the end of the body). */
export function withIdlePreloads(html: string, files: Partial<Record<FrameRoute, readonly string[]>>): string {
  if (Object.keys(files).length === 0) return html;
  return withDataList(html, IDLE_PRELOADS_ID, files);
}

/**
 * The page with the preloads of `files`: with the frame, as the list the gate turns into links once
 * the frame is painted (FRAME_PRELOADS_ID, at the end of the body); without one, as links at the
 * end of the head (after the console's script).
 */
export function withPreloads(html: string, files: readonly string[], framed: boolean): string {
  if (files.length === 0) return html;
  if (framed) return withDataList(html, FRAME_PRELOADS_ID, files);
  return html.replace('</head>', () => `${files.map((f) => `<link rel="modulepreload" href="${attr(f)}">`).join('')}</head>`);
}
