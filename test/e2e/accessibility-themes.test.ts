// axe-core's colour rules on every route of the console in each of the four themes other than the
// default, in English at 1280 px.
// The sweep and what each case checks: axe-sweep.ts.
import { beforeAll, describe, it } from 'vitest';
import { seedPlant, sweepCase, themeCases } from './axe-sweep.ts';
import { consoleSuite } from './support.ts';

describe('accessibility (axe-core)', () => {
  // each test has its own context, so they share only the daemon (a configured unit; the tests save nothing)
  const suite = consoleSuite();
  beforeAll(() => seedPlant(suite));
  it.for(themeCases())('$name', sweepCase(suite));
});
