// How often one function of the console's built scripts runs while a test acts, through V8's precise
// coverage (Chrome DevTools Protocol, Profiler.startPreciseCoverage with call counts). The scripts are
// minified, so the function is found by a text it holds: the innermost function around the one match
// of `marker` in the console's scripts. A render count is what a test of "an edit re-renders only
// what it changed" can assert on: the page's DOM is the same either way.
import type { Page } from '@playwright/test';

interface CoverageRange {
  startOffset: number;
  endOffset: number;
  count: number;
}
interface ScriptCoverage {
  url: string;
  functions: { functionName: string; ranges: CoverageRange[] }[];
}

/** The calls of the function around `marker` while `act` runs. */
export async function callsDuring(page: Page, marker: RegExp, act: () => Promise<void>): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    // the counts so far are taken away: what follows counts from here
    await cdp.send('Profiler.takePreciseCoverage');
    await act();
    const { result } = (await cdp.send('Profiler.takePreciseCoverage')) as unknown as { result: ScriptCoverage[] };
    await cdp.send('Profiler.stopPreciseCoverage');
    const origin = new URL(page.url()).origin;
    const found: number[] = [];
    for (const script of result.filter((s) => s.url.startsWith(`${origin}/`) && s.url.endsWith('.js'))) {
      const text = await page.evaluate(async (url) => (await fetch(url)).text(), script.url);
      const m = marker.exec(text);
      if (!m) continue;
      // the innermost function whose range holds the match (the script itself is the outermost).
      // The report has the functions run since the counts were taken away: when none around the
      // match ran, neither did the function around it (0). When an outer one ran and the one around
      // the match did not, this counts the outer one's calls: too many, never too few.
      const around = script.functions
        .map((f) => f.ranges[0]!)
        .filter((r) => r.startOffset <= m.index && m.index < r.endOffset)
        .sort((a, b) => a.endOffset - a.startOffset - (b.endOffset - b.startOffset));
      found.push(around[0]?.count ?? 0);
    }
    if (found.length !== 1) throw new Error(`${marker} is in ${found.length} of the console's scripts run, not one`);
    return found[0]!;
  } finally {
    await cdp.detach();
  }
}
