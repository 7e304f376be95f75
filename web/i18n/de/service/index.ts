// German: the texts of the shared layout of the service pages, loaded with the pages.
import type { NamespaceServiceTranslation } from '../../i18n-types.ts';

const de_service = {
  general: 'Allgemein',
  specific: 'Verbindung',
  certificates: 'Zertifikate',
  downloads: 'Downloads',
  certNote: 'Namen der hochgeladenen Zertifikatsdateien ({ext}); leer lassen, wenn nicht verwendet.',
  headers: {
    header: 'Header {n}',
    add: 'Header hinzufügen',
    remove: 'Header entfernen',
    count: '{count} von {max} Headern',
    none: 'Kein eigener Header: Anfragen tragen nur die des Geräts.',
  },
  test: {
    test: 'Verbindungstest',
    testing: 'Test läuft…',
    testNote: 'Läuft mit den gespeicherten Einstellungen gegen den eingestellten Server.',
    ok: 'Test bestanden: {peer} ({ms} ms).',
    failed: 'Test fehlgeschlagen: {peer}: {reason}.',
    steps: {
      resolve: 'Hostname aufgelöst',
      connect: 'Verbunden',
      proxy: 'Über den Proxy',
      tls: 'TLS aufgebaut',
      login: 'Angemeldet',
      database: 'Datenbank gefunden',
      table: 'Tabelle geprüft',
      request: 'Anfrage beantwortet',
      write: 'Geschrieben',
      read: 'Zurückgelesen',
      list: 'Aufgelistet',
      send: 'Gesendet',
    },
    failures: {
      unknown_host: 'der Hostname ist unbekannt',
      refused: 'unter dieser Adresse und diesem Port antwortet nichts',
      timeout: 'keine Antwort in der Zeit',
      tls_untrusted: 'dem Zertifikat des Servers wird nicht vertraut',
      tls_version: 'die TLS-Version wurde abgelehnt',
      auth_failed: 'Benutzername oder Passwort falsch',
      not_found: 'auf dem Server nicht gefunden',
      peer_error: 'der Server meldete einen Fehler',
      bad_reply: 'die Antwort war nicht verständlich',
      table_mismatch: 'die Tabelle besteht mit anderen Spalten, als die Datenpunkte brauchen',
    },
  },
  examples: {
    library: 'SPS-Bibliothek (Beispiel)',
    mqtt: 'MQTT-Beispiel',
    ftp: 'FTP-Client-Beispiel',
    sql: 'SQL-Beispiel',
    httpc: 'HTTP-Client-Beispiel',
    email: 'E-Mail-Beispiel',
    rest: 'REST-Beispiel',
    tls: 'TLS-Beispiel',
    mongo: 'MongoDB-Beispiel',
    influx: 'InfluxDB-Beispiel',
  },
} satisfies NamespaceServiceTranslation;

export default de_service;
