// French: the legal notes page (/legal).
import type { NamespaceLegalTranslation } from '../../i18n-types.ts';

const fr_legal = {
  text: 'Console de configuration Communicator. Ne l’utilisez que sur des appareils que vous êtes autorisé à configurer.\nLa console et le démon contiennent les composants open source suivants, chacun sous sa propre licence :',
  components: 'Composants open source',
} satisfies NamespaceLegalTranslation;

export default fr_legal;
