// German online help, one text per page (spec §2), loaded when the help is opened.
import type { NamespaceHelpTranslation } from '../../i18n-types.ts';

const de_help = {
  info: 'Zeigt das Gerät: Betriebssystem, Netzwerk, Uhrzeit, Dienste, installierte Apps und Versionen. Oben erscheinen Warnungen, wenn eine Version zu alt ist oder eine Einstellung die Sicherheit schwächt. Das Systemprotokoll darunter aktualisiert sich alle 5 Sekunden selbst.',
  com: 'Ein Block je Schnittstelle zur SPS: COM1 (RS232), COM2 (RS485 oder RS232), COM3 (USB), INTERNAL (der eigene Modbus-Speicher des Geräts) und COM4 (Ethernet, die SPS-Adresse als IP:Port). Eine deaktivierte Schnittstelle behält ihre Einstellungen.\nDer Verbindungsstatus unter jedem Block aktualisiert sich alle 1,5 Sekunden selbst: der Zustand, die verwendete Baudrate (auch wenn Autobaud sie gefunden hat) und die Zähler für Anfragen, Fehler, Zeitüberschreitungen, Wiederholungen, Bytes und die Auslastung der Verbindung.\nSPS-Test fragt die SPS über die gespeicherten Einstellungen der Schnittstelle nach ihrem Typ und zeigt den CPU-Typ und die Rohantwort. Die Schnittstelle muss aktiviert und gespeichert sein, bei TCP muss ihr Port geöffnet sein. Bei ungespeicherten Änderungen werden Sie vorher gefragt.\nSPS-Einstellungen: Über die Schnittstelle für die Dienststeuerung lesen MQTT, der Datenlogger und die anderen Dienste ihre Steuerregister; eine transparente Schnittstelle kann dafür nicht verwendet werden. Das Gerät kann außerdem über einen SPS-Merker (R) oder alle paar Stunden neu gestartet werden.\nSpeichern speichert die Seite; Zurücksetzen trägt die Standardwerte ein, gespeichert werden sie erst beim Speichern.',
  port: 'Öffnen Sie TCP-Ports, die an die SPS weiterleiten, und legen Sie fest, welche Clients sich verbinden und welche SPS-Register sie lesen oder schreiben dürfen.',
  wizard_com: 'Geführte Einrichtung einer SPS-Verbindung, ihres TCP-Ports und, im erweiterten Modus, des Modbus/TCP-Gateways und der Einschränkungen.',
  datetime: 'Lassen Sie das Gerät die SPS-Uhr stellen, zeitgesteuert oder auf Anforderung der SPS.',
  mqtt: 'Der MQTT-Client veröffentlicht SPS-Daten an einen Broker und schreibt empfangene Werte in die SPS.\nAllgemein: Schalten Sie den Client ein und wählen Sie den Steuerregisterblock, über den die SPS ihn steuert (seine Belegung wird unter dem Feld angezeigt).\nVerbindung: die Broker-Adresse (mqtt://, mqtts://, ws:// oder wss://), die Anmeldedaten und die Dienstgüte. Ein gespeichertes Passwort erscheint als Sternchen; lassen Sie diese stehen, um es zu behalten.\nZertifikate: Namen der hochgeladenen Zertifikatsdateien für TLS.\nSpeichern speichert die Seite; Zurücksetzen trägt die Standardwerte ein, gespeichert werden sie erst beim Speichern.',
  sql: 'SPS-Daten in eine SQL-Datenbank schreiben (MS SQL, MySQL/MariaDB, PostgreSQL).',
  db: 'SPS-Daten in MongoDB oder InfluxDB schreiben.',
  ftp: 'Dateien des Geräts an einen FTP-Server senden.',
  httpc: 'SPS-Daten an einen HTTP-Server senden.',
  smtp: 'Von der SPS ausgelöste E-Mails versenden.',
  rest: 'Anderen Systemen das Lesen und Schreiben von SPS-Daten über eine REST-API ermöglichen und hochgeladene Webseiten bereitstellen.',
  iec: 'SPS-Daten einer Leitstelle über IEC 60870-5-104 bereitstellen.',
  script: 'Eine Skriptdatei auf dem Gerät ausführen.',
  tls: 'Unverschlüsselte Verbindungen über TLS führen (Client) oder TLS annehmen und unverschlüsselt weiterreichen (Server).',
  tlsclient: 'Der TLS-Client-Teil der Brücke.',
  tlsserver: 'Der TLS-Server-Teil der Brücke.',
  log: 'SPS-Daten in CSV-Dateien protokollieren: Dateien, Trigger und Datenpunkte.',
  graphs: 'Logdateien als Trenddiagramme anzeigen.',
  backuprestore: 'Alle Einstellungen in einer Datei sichern oder aus einer Datei wiederherstellen.',
  firmware: 'Ein neues Firmware-Image installieren.',
  legal: 'Lizenzbedingungen der Konsole und ihrer Komponenten.',
  notfound: 'Unter dieser Adresse gibt es keine Seite. Verwenden Sie das Menü.',
} satisfies NamespaceHelpTranslation;

export default de_help;
