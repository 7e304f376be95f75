// French: the page shown for an unknown address.
import type { NamespaceNotFoundTranslation } from '../../i18n-types.ts';

const fr_notFound = { text: 'Il n’y a aucune page à l’adresse {path}.', back: 'Retour aux informations système' } satisfies NamespaceNotFoundTranslation;

export default fr_notFound;
