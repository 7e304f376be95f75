// English: the questions before leaving, resetting or testing with unsaved settings, and their answers; loaded with the settings pages and before such a question.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_confirm = {
  unsavedTitle: 'Settings not saved',
  unsavedLeave: 'This page has changes that are not saved. Leave the page and drop them?',
  unsavedLogout: 'Some settings are changed but not saved. Log out and drop them?',
  logout: 'Log out without saving',
  stayLoggedIn: 'Stay logged in',
  unsavedTest: 'This page has changes that are not saved. The test uses the saved settings. Run it anyway?',
  leave: 'Leave without saving',
  stay: 'Stay on the page',
  testAnyway: 'Run the test',
  cancel: 'Cancel',
  resetTitle: 'Reset to defaults',
  resetText: 'Put the default values into every field of this page? They are stored when you save.',
  reset: 'Reset',
} satisfies BaseTranslation;

export default en_confirm;
