// The esbuild options every daemon bundle shares (the firmware image, the bench's simulator): one
// ESM file for the unit's Node with the npm packages inside. Some bundled packages are CommonJS
// and `require` node's built-ins (pg, mysql2, mongodb, tedious …); an ES module has no `require`,
// so the banner gives the bundle one made by createRequire. serialport stays outside: it loads a
// native binding from its own folder.
import type { BuildOptions } from 'esbuild';

export const NODE_BUNDLE: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'bundle',
  external: ['serialport'],
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
};
