// English: the texts of the certificate upload of the service pages, loaded with the pages.
import type { BaseTranslation } from '../../i18n-types.ts';

const en_certs = {
  kinds: { ca: 'CA certificate', client: 'Client certificate', server: 'Server certificate', key: 'Private key' },
  choose: 'Upload',
  allowed: 'Extensions {ext}',
  none: 'No certificate uploaded.',
  uploaded: 'Upload success: {name}.',
  uploadFailed: 'Failed to upload file(s).',
  removed: 'Removal success: {name}.',
  removeFailed: 'Failed to remove certificates.',
  deleteTitle: 'Remove certificate',
  deleteText: 'Remove {name}? A service that uses it cannot connect until another one is uploaded.',
  delete: 'Remove',
  keep: 'Keep',
  file: 'File',
  subject: 'Subject',
  issuer: 'Issuer',
  validTo: 'Valid until',
  expired: 'expired',
  key: 'Private key ({type})',
  request: 'Certificate request',
  invalid: 'Not a valid certificate file',
  chain: '{count} certificate{{s}}',
  // the console's own listeners on /info (beside its certificate), with their contained faults
  listeners: 'Console listeners',
  listenerHttps: 'HTTPS port {port}',
  listenerHttp: 'HTTP port {port}',
  listenerRedirect: 'HTTP port {port} (redirects to HTTPS)',
  listenerFaults: '{count} connection{{s}} ended by a fault',
} satisfies BaseTranslation;

export default en_certs;
