import { signal } from '@preact/signals';
import { NARROW_QUERY as NARROW } from '../../device/model/first-frame.ts';

/** The screen is narrow (a phone): the shell moves the theme and language choice into the menu. */
export const narrow = signal(false);

if (typeof matchMedia === 'function') {
  const q = matchMedia(NARROW);
  narrow.value = q.matches;
  q.addEventListener('change', (e) => {
    narrow.value = e.matches;
  });
}
