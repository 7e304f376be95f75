import { describe, expect, it } from 'vitest';
import { injectAssets } from './html.ts';

describe('injectAssets', () => {
  it('puts stylesheet, preloads and the module script where the marker was', () => {
    const html = injectAssets('<head>\n<!--assets-->\n</head>', { script: 'assets/main-A.js', css: 'assets/main-B.css', preloads: ['assets/chunk-C.js'] });
    expect(html).toBe(
      '<head>\n<link rel="stylesheet" href="assets/main-B.css">\n<link rel="modulepreload" href="assets/chunk-C.js">\n<script type="module" src="assets/main-A.js"></script>\n</head>',
    );
  });

  it('works without CSS, keeps `$` literal and refuses a template without the marker', () => {
    expect(injectAssets('<!--assets-->', { script: 'a$&.js', preloads: [] })).toBe('<script type="module" src="a$&amp;.js"></script>');
    expect(() => injectAssets('<head></head>', { script: 'a.js', preloads: [] })).toThrow(/marker/);
  });
});
