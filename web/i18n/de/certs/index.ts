// German: the texts of the certificate upload of the service pages, loaded with the pages.
import type { NamespaceCertsTranslation } from '../../i18n-types.ts';

const de_certs = {
  kinds: { ca: 'CA-Zertifikat', client: 'Client-Zertifikat', server: 'Server-Zertifikat', key: 'Privater Schlüssel' },
  choose: 'Hochladen',
  allowed: 'Endungen {ext}',
  none: 'Kein Zertifikat hochgeladen.',
  uploaded: 'Hochladen erfolgreich: {name}.',
  uploadFailed: 'Hochladen der Datei(en) fehlgeschlagen.',
  removed: 'Entfernen erfolgreich: {name}.',
  removeFailed: 'Entfernen der Zertifikate fehlgeschlagen.',
  deleteTitle: 'Zertifikat entfernen',
  deleteText: '{name} entfernen? Ein Dienst, der es verwendet, kann sich erst wieder verbinden, wenn ein anderes hochgeladen ist.',
  delete: 'Entfernen',
  keep: 'Behalten',
  file: 'Datei',
  subject: 'Inhaber',
  issuer: 'Aussteller',
  validTo: 'Gültig bis',
  expired: 'abgelaufen',
  key: 'Privater Schlüssel ({type})',
  request: 'Zertifikatsanforderung',
  invalid: 'Keine gültige Zertifikatsdatei',
  chain: '{count} {{count:Zertifikat|Zertifikate}}',
  // the console's own listeners on /info (beside its certificate), with their contained faults
  listeners: 'Ports der Konsole',
  listenerHttps: 'HTTPS-Port {port}',
  listenerHttp: 'HTTP-Port {port}',
  listenerRedirect: 'HTTP-Port {port} (leitet auf HTTPS um)',
  listenerFaults: '{count} {{count:Verbindung|Verbindungen}} durch einen Fehler beendet',
} satisfies NamespaceCertsTranslation;

export default de_certs;
