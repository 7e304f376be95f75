// Where the keyboard focus goes when the element that had it goes away or is disabled.

/**
 * After a save the Save button is disabled (nothing left to save) and the browser would drop the
 * focus onto <body>: keep it on the page's form (<main>) instead, without scrolling.
 */
export function keepFocus(): void {
  const at = document.activeElement as HTMLElement | null;
  if (!at || at === document.body || (at as HTMLButtonElement).disabled || !at.isConnected) {
    document.getElementById('main')?.focus({ preventScroll: true });
  }
}

/** Scrolls `el` into view below the sticky top bar (which would cover it otherwise) and focuses it. */
export function revealBelowHeader(el: HTMLElement): void {
  const header = document.querySelector<HTMLElement>('header.top');
  const top = el.getBoundingClientRect().top;
  const covered = header ? header.getBoundingClientRect().bottom : 0;
  if (top < covered || top > innerHeight) scrollTo({ top: scrollY + top - covered - 8 });
  el.focus({ preventScroll: true });
}
