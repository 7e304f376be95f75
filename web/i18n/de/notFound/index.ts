// German: the page shown for an unknown address.
import type { NamespaceNotFoundTranslation } from '../../i18n-types.ts';

const de_notFound = { text: 'Unter {path} gibt es keine Seite.', back: 'Zu den Systeminformationen' } satisfies NamespaceNotFoundTranslation;

export default de_notFound;
