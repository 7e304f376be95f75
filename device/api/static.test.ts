import { describe, expect, it } from 'vitest';
import { acceptsGzip, etagMatches } from './static.ts';

describe('content negotiation', () => {
  it('reads Accept-Encoding with q-values', () => {
    for (const yes of ['gzip', 'gzip, deflate, br', 'br;q=1.0, GZIP;q=0.5', '*', 'x-gzip', 'identity, *;q=0.1']) expect(acceptsGzip(yes), yes).toBe(true);
    for (const no of [undefined, '', 'identity', 'br', 'gzip;q=0', 'gzip;q=0.0, br', '*;q=0', 'gzip;q=0, *']) expect(acceptsGzip(no), String(no)).toBe(false);
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('"x", W/"a"', '"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"ab"', '"a"')).toBe(false);
    expect(etagMatches(undefined, '"a"')).toBe(false);
  });
});
