// Test support: a small console source folder for buildWeb (build/web.ts), independent of web/: a
// global stylesheet, a shared module, the first-load page and dictionary, and one page not on the first load.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const FIXTURE_TEMPLATE = '<!doctype html><html><head><!--assets--></head><body><div id="app"></div></body></html>';
/** text only the page that is not on the first load holds */
export const OTHER_PAGE_TEXT = 'a big page';

export async function writeWebFixture(src: string): Promise<void> {
  const files: Record<string, string> = {
    'index.html': FIXTURE_TEMPLATE,
    'main.tsx': `import { say } from './shared.ts';
      say('main', document.title);
      const routes: Record<string, () => Promise<{ default: unknown }>> = { info: () => import('./pages/info.tsx'), other: () => import('./pages/other.tsx') };
      void import('./i18n/en/index.ts').then((d) => say('dict', d.default));
      void routes[location.hash.slice(2)]?.();`,
    'styles/app.css': `body { color: #123456; margin: 0 }\n${['page', 'card', 'field', 'error'].map((c) => `.${c} { padding: 1rem; border: 1px solid var(--line) }`).join('\n')}`,
    'shared.ts': `export function say(what: string, x: unknown): void { document.body.dataset[what] = JSON.stringify(x) + Date.now(); }`,
    'pages/info.tsx': `import { say } from '../shared.ts'; say('info', navigator.userAgent); export default 'info';`,
    'pages/other.tsx': `import { say } from '../shared.ts'; say('other', ${JSON.stringify(`${OTHER_PAGE_TEXT} `.repeat(40))}); export default 'other';`,
    'i18n/en/index.ts': `export default { hello: 'Hello' };`,
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(src, name, '..'), { recursive: true });
    await writeFile(join(src, name), text);
  }
}
