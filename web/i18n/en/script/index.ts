// English: the script file page (/script).
import type { BaseTranslation } from '../../i18n-types.ts';

const en_script = {
  general: 'General',
  transmission: 'FTP transmission',
  editor: 'Script editor',
  files: 'Script files',
  loadDefault: 'Load default script',
  defaultTitle: 'Load the default script',
  defaultText: 'Replace the text in the editor with the default script?',
  replace: 'Replace',
  keep: 'Keep',
  write: 'Write file',
  written: 'The script file {name} was written.',
  download: 'Download',
  upload: 'Upload .cfg file',
  uploaded: 'Upload success: {name}.',
  uploadFailed: 'Failed to upload file(s).',
  use: 'Use',
  active: 'active',
  noFiles: 'No files found.',
  readFailed: 'Failed to read file.',
  size: '{size} bytes',
  count: '{count} of {max} bytes',
} satisfies BaseTranslation;

export default en_script;
