// axe-core (the accessibility rules engine browsers' own audits use) injected into a console page.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One rule broken, with the elements that break it (selector and axe's own summary). */
export interface AxeViolation {
  rule: string;
  impact: string | null | undefined;
  nodes: { target: string; summary: string }[];
}

/** Puts axe into the page unless it is there already (a reload removes it). */
export async function injectAxe(page: Page): Promise<void> {
  if (await page.evaluate(() => 'axe' in window)) return;
  await page.evaluate(AXE_SOURCE);
}

/**
 * The WCAG 2.x A/AA rules and axe's best practices on the whole document, or only the colour
 * rules (`colours: true`) where only the theme changed since the last full check.
 */
export async function axeViolations(page: Page, opts: { colours?: boolean } = {}): Promise<AxeViolation[]> {
  await injectAxe(page);
  return page.evaluate(async (colours) => {
    const axe = (window as unknown as { axe: any }).axe;
    const runOnly = colours
      ? { type: 'rule', values: ['color-contrast', 'link-in-text-block'] }
      : { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] };
    const result = await axe.run(document, { runOnly, resultTypes: ['violations'] });
    return (result.violations as any[]).map((v) => ({
      rule: v.id as string,
      impact: v.impact as string | null,
      nodes: (v.nodes as any[]).slice(0, 8).map((n) => ({
        target: (n.target as string[]).join(' '),
        summary: String(n.failureSummary ?? '')
          .replace(/\s+/g, ' ')
          .slice(0, 240),
      })),
    }));
  }, opts.colours ?? false);
}
