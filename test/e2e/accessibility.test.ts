// axe-core on every route of the console in English, German and French at 1280 px (the full rule
// set; the shell in every theme in English).
// The sweep and what each case checks: axe-sweep.ts.
import { beforeAll, describe, it } from 'vitest';
import { languageCases, seedPlant, sweepCase, WIDTHS } from './axe-sweep.ts';
import { consoleSuite } from './support.ts';

describe('accessibility (axe-core)', () => {
  // each test has its own context, so they share only the daemon (a configured unit; the tests save nothing)
  const suite = consoleSuite();
  beforeAll(() => seedPlant(suite));
  it.for(languageCases(WIDTHS[0]))('$name', sweepCase(suite));
});
