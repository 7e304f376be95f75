// German: the PLC connection wizard (/wizard_com), loaded with it.
import type { NamespaceWizardTranslation } from '../../i18n-types.ts';

const de_wizard = {
  progress: 'Schritte',
  stepTitle: 'Schritt {n} von {count}: {name}',
  steps: {
    mode: 'Modus',
    iface: 'Schnittstelle',
    params: 'Schnittstellenparameter',
    tcp: 'TCP-Empfangsport',
    modbus: 'Modbus-Empfangsport',
    gateway: 'Modbus-Gateway',
    rules: 'Zugriffsregeln',
    finish: 'Abschluss',
  },
  notes: {
    mode: 'Einfach richtet eine Schnittstelle mit einem TCP-Port ein. Erweitert ergänzt das Modbus/TCP-Gateway und Einschränkungen des DT-Bereichs.',
    iface: 'Die Schnittstelle, an der die SPS angeschlossen ist.',
    params: 'Die Einstellungen dieser Schnittstelle, wie auf der COM-Seite.',
    tcp: 'Über diesen Port erreichen die Clients die SPS (Standard 9094).',
    modbus: 'Der Port des Modbus/TCP-Gateways (Modbus-Standard 502); wird verwendet, wenn Sie im nächsten Schritt ein Gateway wählen.',
    gateway: 'Ein zweiter Port, der Modbus/TCP für die SPS übersetzt, über dieselbe oder eine andere Schnittstelle.',
    rules: 'Welche SPS-Daten die Clients lesen oder schreiben dürfen.',
    finish: 'Prüfen Sie die Einstellungen. Abschließen speichert die COM- und die Port-Einstellungen gemeinsam.',
  },
  modes: { simple: 'Einfach', advanced: 'Erweitert' },
  modeHints: {
    simple: 'Eine Schnittstelle und ein TCP-Port; jeder SPS-Bereich, auch DT, wird als Ganzes erlaubt oder nicht.',
    advanced: 'Zusätzlich ein Modbus/TCP-Gateway und Einschränkungen von DT-Adressbereichen.',
  },
  isEnabled: 'aktiviert, {protocol}',
  isDisabled: 'nicht aktiviert',
  enables: 'Der Assistent aktiviert {name}.',
  internal: 'INTERNAL hat keine weiteren Parameter: der eigene Speicher des Geräts, immer Modbus.',
  tcpPort: 'TCP-Empfangsport',
  modbusPort: 'Modbus-Empfangsport',
  gateways: { none: 'Kein Gateway', same: 'Dieselbe Schnittstelle', other: 'Neue Schnittstelle' },
  gatewayHints: {
    none: 'Nur der TCP-Port.',
    same: 'Das Gateway verwendet ebenfalls {name}.',
    other: 'Das Gateway verwendet eine andere Schnittstelle, aktiviert mit ihren Parametern unten.',
  },
  gatewayIface: 'Schnittstelle des Gateways',
  layout:
    'Modbus-Belegung auf Port {port}: Holding-Register 0\u00a0–\u00a065535 sind DT0\u00a0–\u00a0DT65535; Coils ab 0 sind die Y-Relais (Coil 16·n + b ist Bit b von WY n); Coils ab {r} sind ebenso die R-Merker von WR.',
  rules: { read: 'Alles lesen erlauben', write: 'Alles schreiben erlauben', individual: 'Individuell' },
  ruleHints: {
    read: 'Jeder SPS-Bereich kann gelesen, aber keiner beschrieben werden.',
    write: 'Jeder SPS-Bereich kann gelesen und geschrieben werden.',
    individual: 'Nur die Bereiche, die Sie eingeben (im einfachen Modus ohne DT-Bereich).',
    individualDt: 'Nur die Bereiche, die Sie eingeben, einschließlich DT-Bereich.',
  },
  entry: '{area} {start}\u00a0–\u00a0{end}: {rights}',
  gatewayWhole:
    'Das Gateway gewährt dieselben Rechte auf DT0\u00a0–\u00a0DT65535 (Holding-Register) und auf die WY-Relais und WR-Merker (Coils ab 0 und ab {r}).',
  gatewayIndividual:
    'Am Gateway sind DT-Einträge Holding-Register an ihrer eigenen Adresse (bis DT65535), WY-Einträge Coils ab 0 und WR-Einträge Coils ab {r} (16 je Wort); andere Bereiche sind über Modbus nicht erreichbar.',
  summary: { mode: 'Modus', iface: 'Schnittstelle', gateway: 'Modbus-Gateway', rules: 'Einschränkungen', entries: 'Individuell (Einträge: {count})' },
  overwrite: 'Abschließen überschreibt die aktuellen COM- und Port-Einstellungen.',
  failed: 'Etwas ist schiefgelaufen.',
  back: 'Zurück',
  continue: 'Weiter',
  finish: 'Abschließen',
  cancel: 'Abbrechen',
  cancelTitle: 'Assistent verlassen',
  cancelText: 'Ihre Eingaben im Assistenten werden verworfen; die Einstellungen bleiben, wie sie sind.',
  discard: 'Eingaben verwerfen',
  stay: 'Im Assistenten bleiben',
} satisfies NamespaceWizardTranslation;

export default de_wizard;
