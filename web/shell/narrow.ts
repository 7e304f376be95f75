import { signal } from '@preact/signals';

/** The width below which the menu folds behind ☰ (the breakpoint of web/styles/app.css). */
const NARROW = '(max-width: 760px)';

/** The screen is narrow (a phone): the shell moves the theme and language choice into the menu. */
export const narrow = signal(false);

if (typeof matchMedia === 'function') {
  const q = matchMedia(NARROW);
  narrow.value = q.matches;
  q.addEventListener('change', (e) => {
    narrow.value = e.matches;
  });
}
