// English: the legal notes page (/legal).
import type { BaseTranslation } from '../../i18n-types.ts';

const en_legal = {
  text: 'Communicator configuration console. Use it only on units you are allowed to configure.\nThe console and the daemon contain the following open-source components, each under its licence:',
  components: 'Open-source components',
} satisfies BaseTranslation;

export default en_legal;
