import { describe, expect, it } from 'vitest';
import { PALETTE, seriesColour } from './palette.ts';

describe('graph palette (spec §9: 36 colours)', () => {
  it('has 36 different colours written as #rrggbb', () => {
    expect(PALETTE).toHaveLength(36);
    expect(new Set(PALETTE.map((c) => c.toLowerCase())).size).toBe(36);
    for (const c of PALETTE) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('gives every column its own colour and starts again after 36', () => {
    expect(seriesColour(0)).toBe('#1f77b4');
    expect(seriesColour(35)).toBe('#c49c94');
    expect(seriesColour(36)).toBe(seriesColour(0));
    expect(seriesColour(37)).toBe(seriesColour(1));
    expect(new Set(Array.from({ length: 36 }, (_, i) => seriesColour(i))).size).toBe(36);
  });

  it('keeps away from colours that vanish on a white or a black background', () => {
    const luminance = (c: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16) / 255);
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    for (const c of PALETTE) {
      expect(luminance(c), c).toBeGreaterThan(0.08);
      expect(luminance(c), c).toBeLessThan(0.8);
    }
  });
});
