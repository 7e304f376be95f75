// The daemon never imports node:tls as an ES module: building that module's namespace reads its
// `rootCertificates` getter, which keeps the whole CA list as strings for the process's life
// (0.9 MB of idle memory). Checked on the unit's bundle, so a bundled package counts too.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { NODE_BUNDLE } from '../../build/node-bundle.ts';
import { connect, createSecureContext, createServer } from './node-tls.ts';

describe('node:tls', () => {
  it('is the built-in module, loaded with require', async () => {
    const tls = await import('node:tls');
    expect([connect, createSecureContext, createServer]).toEqual([tls.connect, tls.createSecureContext, tls.createServer]);
  });

  it('no ES import of it in the unit daemon bundle, only the require', async () => {
    const result = await build({
      ...NODE_BUNDLE,
      entryPoints: { unit: fileURLToPath(new URL('../unit.ts', import.meta.url)) },
      outdir: fileURLToPath(new URL('../../dist/node-tls-check/', import.meta.url)),
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles.map((f) => f.text).join('\n');
    expect(code).not.toMatch(/\bfrom\s*["'](node:)?tls["']/);
    expect(code).not.toMatch(/\bimport\s*\(\s*["'](node:)?tls["']\s*\)/);
    expect(code).toMatch(/["']node:tls["']/); // the require of device/net/node-tls.ts
  }, 60_000); // a bundle of the whole daemon: about 3 s alone, several times that on a busy machine
});
