// Fills the console's HTML template (web/index.html) with the built file names.
export const ASSETS_MARKER = '<!--assets-->';

export interface HtmlAssets {
  /** the main entry script, relative to index.html */
  script: string;
  /** the global stylesheet, if the build has one */
  css?: string;
  /** chunks the entry imports statically: preloaded so the browser fetches them in parallel */
  preloads: readonly string[];
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function injectAssets(template: string, assets: HtmlAssets): string {
  if (!template.includes(ASSETS_MARKER)) throw new Error(`the HTML template has no ${ASSETS_MARKER} marker`);
  const tags = [
    ...(assets.css ? [`<link rel="stylesheet" href="${attr(assets.css)}">`] : []),
    ...assets.preloads.map((p) => `<link rel="modulepreload" href="${attr(p)}">`),
    `<script type="module" src="${attr(assets.script)}"></script>`,
  ];
  // a function replacement, so `$` in a file name is never read as a pattern
  return template.replace(ASSETS_MARKER, () => tags.join('\n'));
}
