// English: the page shown for an unknown address.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_notFound = { text: 'There is no page at {path}.', back: 'To the system information' } satisfies BaseTranslation;

export default en_notFound;
