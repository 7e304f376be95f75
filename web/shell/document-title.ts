import { useEffect } from 'preact/hooks';
import { LL } from '../i18n/translate.ts';

/** The browser tab and history show "<page> – <product>" (WCAG 2.4.2: every page has a title). */
export function useDocumentTitle(title: string): void {
  const product = LL.value.app.title();
  useEffect(() => {
    document.title = `${title} – ${product}`;
  }, [title, product]);
}
