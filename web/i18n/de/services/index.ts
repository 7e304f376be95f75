// German: the system services list on /info, loaded with the services part.
import type { NamespaceServicesTranslation } from '../../i18n-types.ts';

const de_services = {
  intro: 'Systemdienste des Geräts ein- oder ausschalten und speichern. Jede Änderung wird im Audit-Protokoll vermerkt.',
  readOnly: 'Nur der Administrator kann die Dienste ändern.',
  save: 'Dienste speichern',
  saved: 'Dienste gespeichert.',
  saveFailed: 'Die Dienste konnten nicht gespeichert werden: {reason}',
  failedService: 'Das Gerät hat die Änderung von {service} abgelehnt.',
  changed: 'nicht gespeichert',
  consoleCert: {
    title: 'Konsolenzertifikat (HTTPS)',
    off: 'Die Konsole wird über unverschlüsseltes HTTP ausgeliefert (Standard des Simulators).',
    source: 'Herkunft',
    generated: 'auf diesem Gerät erzeugt (selbstsigniert)',
    uploaded: 'hochgeladen',
    fingerprint: 'SHA-256-Fingerabdruck',
    names: 'Namen',
    valid: 'Gültig',
    refused: 'Das hochgeladene Zertifikat wird nicht verwendet: {reason}',
    note: 'Vergleichen Sie den Fingerabdruck mit dem, den Ihr Browser anzeigt, bevor Sie dem Zertifikat vertrauen. Laden Sie ein Zertifikat mit seinem Schlüssel hoch, um es zu ersetzen; entfernen Sie beide, um zum erzeugten zurückzukehren.',
  },
  desc: {
    avahi_daemon: 'Macht das Gerät im lokalen Netz bekannt (mDNS/Zeroconf), damit es über seinen Namen gefunden wird.',
    x11vnc: 'Fernansicht des Gerätebildschirms über VNC.',
    snmpd: 'SNMP-Agent zur Netzwerküberwachung; Community-Strings von v1/v2c werden im Klartext übertragen.',
    cloud: 'Fernzugriff (VPN) über den Cloud-Dienst.',
    sshd: 'Secure Shell für Wartungsarbeiten aus dem Netzwerk.',
    ntpd: 'Stellt die Uhr des Geräts über Zeitserver (NTP).',
    firewall: 'Sperrt Verbindungen zu Ports, die keine Einstellung geöffnet hat.',
    router: 'Leitet Datenverkehr zwischen den Netzwerkschnittstellen des Geräts weiter.',
    bridge: 'Verbindet zwei Netzwerkschnittstellen zu einem Netz.',
    fastboot: 'Startet schneller, indem die Prüfungen beim Hochfahren übersprungen werden.',
    autorun: 'Startet Programme von einem USB-Stick, sobald er eingesteckt wird.',
    dhcp_server: 'Vergibt IP-Adressen an Geräte an einer Netzwerkschnittstelle.',
    usb_device_restore: 'Stellt Einstellungen von einem USB-Stick wieder her, sobald er eingesteckt wird.',
  },
  reset: {
    title: 'Werkseinstellungen',
    intro: 'Setzt das Gerät in den Auslieferungszustand zurück. Erstellen Sie vorher eine Sicherung, falls Sie die Einstellungen noch brauchen.',
    lost: 'Verloren gehen: alle Einstellungen aller Seiten (zurück auf die Vorgaben), die Dienste (zurück auf ihre Vorgaben), alle Benutzer und ihre Passwörter, die hochgeladenen Zertifikate und Schlüssel, die Dateien des HTTP-Servers, die Skriptdateien, die Log-Konfigurationsdateien, die Logdateien im internen und temporären Speicher und das Prometheus-Scrape-Token. Alle werden abgemeldet.',
    kept: 'Erhalten bleiben: das Audit-Protokoll und die Dateien auf einem USB-Stick.',
    button: 'Auf Werkseinstellungen zurücksetzen…',
    confirmTitle: 'Gerät auf Werkseinstellungen zurücksetzen?',
    confirmText: 'Das lässt sich nicht rückgängig machen. Danach legen Sie einen neuen Administrator an.',
    yes: 'Alles löschen und zurücksetzen',
    no: 'Abbrechen',
    failed: 'Das Zurücksetzen ist fehlgeschlagen: {reason}',
    done: 'Das Gerät ist zurückgesetzt. Legen Sie den Administrator an.',
  },
} satisfies NamespaceServicesTranslation;

export default de_services;
