// The pages' own stylesheets, imported as text (`import css from '../styles/log.css' with { type:
// 'text' }`) and written into a <style> by the page, were shipped as written: comments, indents and
// all. Minified here the way esbuild minifies the console's own stylesheet, with the same targets.
import { readFile } from 'node:fs/promises';
import { type BuildOptions, type Plugin, transform } from 'esbuild';

/** A stylesheet imported as text comes minified (same rules, no comments, no layout whitespace). */
export function minifiedTextCss(target: BuildOptions['target']): Plugin {
  return {
    name: 'minified-text-css',
    setup(b) {
      b.onLoad({ filter: /\.css$/ }, async (args) => {
        if (args.with.type !== 'text') return undefined;
        const source = await readFile(args.path, 'utf8');
        const { code } = await transform(source, { loader: 'css', minify: true, ...(target ? { target } : {}), sourcefile: args.path });
        return { contents: code.trimEnd(), loader: 'text' };
      });
    },
  };
}
