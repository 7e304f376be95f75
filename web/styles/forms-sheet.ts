// Adds the settings pages' styles (web/styles/forms.css) to the document, once: imported with the
// first settings page (web/router/routes.tsx), after the console's own stylesheet in the cascade.
import css from './forms.css' with { type: 'text' };

const sheet = document.createElement('style');
sheet.dataset.sheet = 'forms';
sheet.textContent = css as string;
document.head.append(sheet);
