// Fills the console's HTML template (web/index.html) with the built stylesheet and file names.
import { consoleScriptTag } from '../device/model/first-frame.ts';

export const ASSETS_MARKER = '<!--assets-->';

export interface HtmlAssets {
  /** the main entry script, relative to index.html */
  script: string;
  /**
   * the global stylesheet's text, if the build has one: put into the page as a `<style>` element, so
   * the browser starts no request for it (the console's CSP allows inline styles)
   */
  style?: string;
  /** chunks the entry imports statically: preloaded so the browser fetches them in parallel */
  preloads: readonly string[];
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The sheet as the text of a `<style>` element, which ends at the first `</style`; an url() would be
 * read from the page's folder, not from assets/ where the sheet was built for. Neither is in the
 * console's sheet: refused rather than rewritten.
 */
function styleText(css: string): string {
  if (/<\/style/i.test(css)) throw new Error('the stylesheet contains `</style`, which would end its inline element');
  if (/url\(\s*['"]?(?!data:)/i.test(css)) throw new Error('the stylesheet refers to a file with url(): inline, it would be read from the wrong folder');
  return css;
}

export function injectAssets(template: string, assets: HtmlAssets): string {
  if (!template.includes(ASSETS_MARKER)) throw new Error(`the HTML template has no ${ASSETS_MARKER} marker`);
  const tags = [
    ...(assets.style ? [`<style>${styleText(assets.style)}</style>`] : []),
    ...assets.preloads.map((p) => `<link rel="modulepreload" href="${attr(p)}">`),
    consoleScriptTag(attr(assets.script)),
  ];
  // a function replacement, so `$` in a file name is never read as a pattern
  return template.replace(ASSETS_MARKER, () => tags.join('\n'));
}
