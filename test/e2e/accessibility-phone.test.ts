// axe-core on every route of the console in English, German and French at 360 px, as a phone (the
// full rule set; the shell with the open menu in every theme in English).
// The sweep and what each case checks: axe-sweep.ts.
import { beforeAll, describe, it } from 'vitest';
import { languageCases, seedPlant, sweepCase, WIDTHS } from './axe-sweep.ts';
import { consoleSuite } from './support.ts';

describe('accessibility (axe-core)', () => {
  // each test has its own context, so they share only the daemon (a configured unit; the tests save nothing)
  const suite = consoleSuite();
  beforeAll(() => seedPlant(suite));
  it.for(languageCases(WIDTHS[1]))('$name', sweepCase(suite));
});
