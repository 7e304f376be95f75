// English: the texts of the REST page (/rest), loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_rest = {
  files: 'HTTP server files',
  filesHint: 'Files uploaded for the HTTP server. With the HTTP server on, each is served at http(s)://<unit>:<port>/<name>; index.html also at /.',
  refresh: 'Refresh',
  listFailed: 'Failed to read file; no files found.',
  none: 'No files uploaded.',
  checkAll: 'Select all files',
  check: 'Select {name}',
  name: 'Name',
  size: 'Size',
  remove: 'Delete selected ({count})',
  removeTitle: 'Delete HTTP files',
  removeText: 'Delete {count} file{{s}} from the HTTP server? This cannot be undone.',
  removeYes: 'Delete',
  removed: '{count} file{{s}} deleted.',
  certNote:
    'With encryption the server presents the uploaded server certificate (server.pem or server.crt) and its key (key.pem or key.key). A newly uploaded certificate is used within a few seconds.',
  stateOff: 'The REST port is closed: neither the API nor the HTTP server is enabled in the saved settings.',
  stateListening: 'Listening on port {port} ({scheme}).',
  stateNoCert: 'Not listening: HTTPS needs the uploaded server certificate and key.',
  stateFailed: 'Not listening on port {port}: {detail}',
  faults: 'Requests that failed and were closed with an error (faults contained): {count:number}',
} satisfies BaseTranslation;

export default en_rest;
