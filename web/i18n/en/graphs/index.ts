// English: the texts of the trend graphs page (/graphs), loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_graphs = {
  intro: 'Choose one or several log files: each file gets a graph of its own; click a legend entry to hide or show its series.',
  zoomMouse: 'Zoom with Ctrl+drag or the mouse wheel over a graph.',
  zoomTouch: 'Zoom with two fingers over a graph (spread them apart to zoom in); drag sideways with one finger to move along the time axis.',
  files: 'Log files',
  storages: { intern: 'Internal memory', usb: 'USB', temp: 'Temporary memory' },
  notMounted: 'Not mounted.',
  noFiles: 'No files found.',
  refresh: 'Refresh the list',
  size: '{kb} KB',
  chartType: 'Chart type',
  types: { line: 'Line', bar: 'Bar', stacked: 'Stacked bar' },
  none: 'Choose a log file to see its graph.',
  loading: 'Loading…',
  readFailed: 'Failed to read file.',
  invalidFormat: 'Invalid data format in graph (date, time, separator).',
  tooLarge: 'The file is too large for a graph: {size} MB, at most {max} MB.',
  noNumbers: 'The file has no column with numbers to draw.',
  textColumns: 'Not drawn (text): {names}',
  skipped: 'Lines left out (not data lines): {n}',
  torn: 'The last line is incomplete (still being written?) and was left out.',
  range: '{from} to {to}',
  lines: 'Data lines: {n}',
  resetZoom: 'Reset zoom',
  legend: 'Series (click to hide or show)',
  chart: 'Trend graph of {name}',
} satisfies BaseTranslation;

export default en_graphs;
