// French: the questions before leaving, resetting or testing with unsaved settings, and their answers; loaded with the settings pages and before such a question.
import type { NamespaceConfirmTranslation } from '../../i18n-types.ts';

const fr_confirm = {
  unsavedTitle: 'Paramètres non enregistrés',
  unsavedLeave: 'Cette page contient des modifications non enregistrées. Quitter la page et les abandonner ?',
  unsavedLogout: 'Des paramètres ont été modifiés sans être enregistrés. Se déconnecter et abandonner ces modifications ?',
  logout: 'Se déconnecter sans enregistrer',
  stayLoggedIn: 'Rester connecté',
  unsavedTest: 'Cette page contient des modifications non enregistrées. Le test utilise les paramètres enregistrés. Le lancer quand même ?',
  leave: 'Quitter sans enregistrer',
  stay: 'Rester sur la page',
  testAnyway: 'Lancer le test',
  cancel: 'Annuler',
  resetTitle: 'Rétablir les valeurs par défaut',
  resetText: 'Remplir tous les champs de cette page avec les valeurs par défaut ? Elles ne seront enregistrées qu’à l’enregistrement.',
  reset: 'Réinitialiser',
} satisfies NamespaceConfirmTranslation;

export default fr_confirm;
