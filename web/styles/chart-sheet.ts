// Adds the charts' styles (web/styles/chart.css) to the document, once: imported by the pages that
// draw charts (/graphs, /health), after the console's own stylesheet in the cascade.
import css from './chart.css' with { type: 'text' };

if (typeof document !== 'undefined') {
  const sheet = document.createElement('style');
  sheet.dataset.sheet = 'chart';
  sheet.textContent = css as string;
  document.head.append(sheet);
}
