// German: the legal notes page (/legal).
import type { NamespaceLegalTranslation } from '../../i18n-types.ts';

const de_legal = {
  text: 'Communicator-Konfigurationskonsole. Verwenden Sie sie nur für Geräte, die Sie konfigurieren dürfen.\nKonsole und Daemon enthalten die folgenden Open-Source-Komponenten, jeweils unter ihrer eigenen Lizenz:',
  components: 'Open-Source-Komponenten',
} satisfies NamespaceLegalTranslation;

export default de_legal;
