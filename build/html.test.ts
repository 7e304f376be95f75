import { describe, expect, it } from 'vitest';
import { injectAssets } from './html.ts';

describe('injectAssets', () => {
  it('puts stylesheet, preloads and the module script where the marker was', () => {
    const html = injectAssets('<head>\n<!--assets-->\n</head>', { script: 'assets/main-A.js', style: 'body{margin:0}', preloads: ['assets/chunk-C.js'] });
    expect(html).toBe(
      '<head>\n<style>body{margin:0}</style>\n<link rel="modulepreload" href="assets/chunk-C.js">\n<script type="module" src="assets/main-A.js"></script>\n</head>',
    );
  });

  it('refuses a stylesheet that would end its element early or read a file from the wrong folder', () => {
    const inline = (style: string) => injectAssets('<!--assets-->', { script: 'a.js', style, preloads: [] });
    expect(() => inline('a::after{content:"</style>"}')).toThrow(/<\/style/);
    expect(() => inline('a{background:url(logo.svg)}')).toThrow(/url\(\)/);
    expect(() => inline("a{background:url( '../x.png')}")).toThrow(/url\(\)/);
    expect(inline('a{background:url(data:image/png;base64,AA==)}')).toContain('url(data:image/png');
  });

  it('works without CSS, keeps `$` literal and refuses a template without the marker', () => {
    expect(injectAssets('<!--assets-->', { script: 'a$&.js', preloads: [] })).toBe('<script type="module" src="a$&amp;.js"></script>');
    expect(() => injectAssets('<head></head>', { script: 'a.js', preloads: [] })).toThrow(/marker/);
  });
});
