// The console's first load as one script. esbuild (with splitting) puts shared code into one chunk per
// set of entry points that reach it, and every module loaded with import() is an entry point of its
// own. So the shell, reached by the entry and by each page, came as the entry, a chunk of the shell
// and a chunk of the English texts (the generated dictionary loader also imports them lazily), and
// before that as some twenty small chunks, each page using another subset of the shell.
//
// Here every lazy module that shares code with the entry imports the entry first: then all the entry
// reaches, the entry's own code too, is reached by the same set of entry points and is one chunk,
// which index.html loads as its only script (build/web.ts). Each request costs the browser's main
// thread its own work while the page loads (in a trace at CPU 4x, 6-10 ms each to start while the
// HTML is parsed). Nothing runs earlier or twice: a lazy module is only ever loaded after the entry
// has run, and a module runs once.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type BuildOptions, build, type Plugin } from 'esbuild';
import { metaPath, staticClosure } from './closure.ts';

export interface LazyModules {
  /** lazy modules outside the entry's static imports: the import of the entry goes on their first line */
  outside: ReadonlySet<string>;
  /**
   * lazy modules the entry also imports statically, with the names they export. Importing the entry
   * from one of them would close a cycle, and esbuild would order the chunk from the lazy module's
   * side (the entry's code before that module's); import() of one loads a stand-in module instead,
   * which imports the entry first and passes the module's exports on.
   */
  inside: ReadonlyMap<string, readonly string[]>;
}

/**
 * The console's lazy modules that share code with the entry (absolute paths), from a build that writes
 * nothing. One that reaches none of the entry's code (most parts of the dictionaries) needs no import
 * of it: its code is in no chunk with the entry's.
 */
export async function findLazyModules(options: BuildOptions, entry: string, root: string): Promise<LazyModules> {
  const { inputs, outputs } = (await build({ ...options, write: false, minify: false, metafile: true })).metafile;
  const reach = (start: string) => new Set(staticClosure(inputs, start));
  const shell = reach(metaPath(root, entry));
  const lazy = new Set(Object.values(inputs).flatMap((i) => i.imports.filter((imp) => imp.kind === 'dynamic-import' && !imp.external).map((imp) => imp.path)));
  const outside = new Set<string>();
  const inside = new Map<string, string[]>();
  for (const m of lazy) {
    if (shell.has(m)) inside.set(resolve(root, m), Object.values(outputs).find((o) => o.entryPoint === m)?.exports ?? []);
    else if ([...reach(m)].some((x) => shell.has(x))) outside.add(resolve(root, m));
  }
  return { outside, inside };
}

const RESOLVING = 'one-chunk:resolving';
const STAND_IN = 'one-chunk-stand-in';

/** The plugin that adds the imports of the entry (`entry`, absolute) described above. */
export function lazyModulesImportEntry(lazy: LazyModules, entry: string): Plugin {
  return {
    name: 'lazy-modules-import-entry',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === RESOLVING) return undefined;
        const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
        return r.errors.length === 0 && lazy.inside.has(r.path) ? { path: r.path, namespace: STAND_IN } : undefined;
      });
      b.onLoad({ filter: /.*/, namespace: STAND_IN }, (args) => {
        const names = lazy.inside.get(args.path) ?? [];
        const pass = names.length > 0 ? `export { ${names.join(', ')} } from ${JSON.stringify(args.path)};` : `import ${JSON.stringify(args.path)};`;
        return { contents: `import ${JSON.stringify(entry)};\n${pass}\n`, loader: 'ts', resolveDir: dirname(args.path) };
      });
      b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
        if (!lazy.outside.has(args.path)) return undefined;
        const text = await readFile(args.path, 'utf8');
        return { contents: `import ${JSON.stringify(entry)};\n${text}`, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts', resolveDir: dirname(args.path) };
      });
    },
  };
}
