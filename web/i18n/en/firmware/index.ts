// English: the texts of the firmware page (/firmware), loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_firmware = {
  title: 'Firmware update',
  installTitle: 'Install a new version',
  nowRunning: 'Update installed: the unit now runs version {version} (before: {from}).',
  stillRunning: 'The unit still runs version {version}: the update was not installed. The firmware page shows why.',
  intro:
    'Installs a signed firmware image. Choose the .zip package and its .md5 file together; both are checked completely before anything on the unit changes.',
  readOnly: 'Only the administrator can update the firmware.',
  running: 'Running version',
  minimums: 'Required on the unit',
  minimumsValue: 'app {app}, BSP {bsp}, HMI runtime {hmi}',
  files: 'Update files (.zip and .md5)',
  filesHint: 'Select both files at once.',
  start: 'Update',
  confirmTitle: 'Update the firmware?',
  confirmText: 'The unit installs {name} and restarts. Once started, the update cannot be cancelled.',
  progressTitle: 'Update in progress',
  states: { upload: 'Upload', updating: 'Updating', rebooting: 'Rebooting' },
  noCancel: 'The update cannot be cancelled. The page refreshes itself when the unit answers again.',
  refused: 'Update failed: {reason}',
  timeout: 'Update failed. The browser timeout of 2 minutes has probably expired. The page retries in about 90 s; if the problem remains, contact support.',
  retryIn: 'Refresh in {seconds} s.',
  lastOk: 'Version {version} was installed (before: {from}).',
  lastFailed: 'Version {version} did not start; version {from} runs again.',
  reasons: {
    missing_files: 'Some update files are missing: the .zip package and its .md5 file must be uploaded together.',
    file_type: 'Wrong file type: choose one .zip package and one .md5 file.',
    file_name: 'Wrong file name: the .md5 file must be named after the package, with letters, digits, _ . - only.',
    too_large: 'The file is too large (at most {max} bytes).',
    md5: 'The package does not match its .md5 file (damaged during transfer).',
    archive: 'The package is not a safe archive ({problem}).',
    signature: 'The image is not signed by a trusted key.',
    content: 'The image was changed after it was signed ({file}).',
    older: 'The image is for an older version ({version}) than the running one ({running}).',
    incompatible: 'The image needs {kind} {required}; the unit has {installed}.',
    busy: 'An update is already running; it cannot be cancelled.',
    unavailable: 'Firmware updates are not available: the supervisor that installs them is not running (in the simulator, start it with npm run supervisor).',
    start_failed: 'The new version did not start; the previous version runs again.',
  },
} satisfies BaseTranslation;

export default en_firmware;
