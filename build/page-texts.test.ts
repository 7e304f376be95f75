import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FRAME_ROUTES } from '../device/model/first-frame.ts';
import { PAGE_IDS } from '../web/pages.ts';
import { pageTexts } from './page-texts.ts';

const source = readFileSync(new URL('../web/router/routes.tsx', import.meta.url), 'utf8');

describe("the pages' parts of the texts, read from web/router/routes.tsx", () => {
  it('finds every page but the information page (part of the shell), with its module', () => {
    const pages = pageTexts(source);
    expect([...pages.keys()].sort()).toEqual(PAGE_IDS.filter((p) => p !== 'info').sort());
    for (const route of FRAME_ROUTES.filter((r) => r !== 'info')) expect(pages.get(route)?.module).toBe(`pages/${route}.tsx`);
  });

  it('reads the common parts, a list after them and a list of its own', () => {
    const pages = pageTexts(`export const TEXTS = ['fields', 'form'] as const;
  com: page(() => import('../pages/com.tsx'), TEXTS),
  log: page(() => import('../pages/log.tsx'), [...TEXTS, 'logger']),
  legal: page(() => import('../pages/legal.tsx'), ['legal']),`);
    expect(Object.fromEntries([...pages].map(([id, p]) => [id, p.texts]))).toEqual({
      com: ['fields', 'form'],
      log: ['fields', 'form', 'logger'],
      legal: ['legal'],
    });
    expect(pageTexts(source).get('mqtt')?.texts).toContain('serviceStatus');
  });

  it('a source without the common list is refused', () => {
    expect(() => pageTexts('')).toThrow(/TEXTS/);
  });
});
