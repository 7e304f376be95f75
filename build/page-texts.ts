// The parts of the dictionary each page loads with its chunk, as web/router/routes.tsx names them
// (`page(() => import('../pages/<file>.tsx'), <parts>)`), read from its source: the build names the
// files a deep link needs for the daemon's preload links (device/api/frame-preloads.ts) without
// the console's first load carrying a second table of them.
import { readFile } from 'node:fs/promises';

export const ROUTES_FILE = 'router/routes.tsx';

const names = (list: string): string[] => [...list.matchAll(/'([A-Za-z]+)'/g)].map((m) => m[1]!);

/** Each page's id → its module (relative to web/) and the parts of the texts it loads; throws on a source it cannot read. */
export function pageTexts(source: string): Map<string, { module: string; texts: string[] }> {
  const common = /export const TEXTS = \[([^\]]*)\] as const;/.exec(source);
  if (!common) throw new Error(`${ROUTES_FILE}: no TEXTS list`);
  const texts = names(common[1]!);
  const pages = new Map<string, { module: string; texts: string[] }>();
  for (const m of source.matchAll(/^\s*(\w+): page\(\(\) => import\('\.\.\/(pages\/[\w-]+\.tsx)'\), (TEXTS|\[[^\]]*\])\),$/gm)) {
    const list = m[3]!;
    const own = list === 'TEXTS' ? texts : [...(list.includes('...TEXTS') ? texts : []), ...names(list)];
    pages.set(m[1]!, { module: m[2]!, texts: own });
  }
  return pages;
}

export const readPageTexts = async (srcDir: string) => pageTexts(await readFile(`${srcDir}/${ROUTES_FILE}`, 'utf8'));
