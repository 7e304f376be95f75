// The trend graphs' colours (spec §9: graph palette of 36 colours). A series keeps the colour of its
// column position in the file, so hiding one never recolours the others; past 36 columns the
// palette starts again. Mid-tone colours, readable on the light and the dark themes alike.
export const PALETTE: readonly string[] = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
  '#7b4173',
  '#3182bd',
  '#e6550d',
  '#31a354',
  '#756bb1',
  '#636363',
  '#6b6ecf',
  '#b5cf6b',
  '#e7ba52',
  '#d6616b',
  '#ce6dbd',
  '#6baed6',
  '#fd8d3c',
  '#74c476',
  '#9e9ac8',
  '#4dbbd5',
  '#9c9ede',
  '#00a087',
  '#e7969c',
  '#de9ed6',
  '#a55194',
  '#c49c94',
];

/** The colour of the series in column `index` (0 = the first value column). */
export function seriesColour(index: number): string {
  const n = PALETTE.length;
  return PALETTE[((index % n) + n) % n]!;
}
