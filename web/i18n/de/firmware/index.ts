// German: the texts of the firmware page (/firmware), loaded with the pages.
import type { NamespaceFirmwareTranslation } from '../../i18n-types.ts';

const de_firmware = {
  title: 'Firmware-Update',
  installTitle: 'Neue Version installieren',
  nowRunning: 'Update installiert: Das Gerät läuft jetzt mit Version {version} (vorher: {from}).',
  stillRunning: 'Das Gerät läuft weiter mit Version {version}: Das Update wurde nicht installiert. Die Firmware-Seite zeigt den Grund.',
  intro:
    'Installiert ein signiertes Firmware-Image. Wählen Sie das .zip-Paket und seine .md5-Datei zusammen; beide werden vollständig geprüft, bevor sich auf dem Gerät etwas ändert.',
  readOnly: 'Nur der Administrator kann die Firmware aktualisieren.',
  running: 'Laufende Version',
  minimums: 'Auf dem Gerät erforderlich',
  minimumsValue: 'App {app}, BSP {bsp}, HMI-Runtime {hmi}',
  files: 'Update-Dateien (.zip und .md5)',
  filesHint: 'Beide Dateien zusammen auswählen.',
  start: 'Aktualisieren',
  confirmTitle: 'Firmware aktualisieren?',
  confirmText: 'Das Gerät installiert {name} und startet neu. Einmal gestartet, kann das Update nicht abgebrochen werden.',
  progressTitle: 'Update läuft',
  states: { upload: 'Hochladen', updating: 'Aktualisieren', rebooting: 'Neustart' },
  noCancel: 'Das Update kann nicht abgebrochen werden. Die Seite lädt sich neu, sobald das Gerät wieder antwortet.',
  refused: 'Update fehlgeschlagen: {reason}',
  timeout:
    'Update fehlgeschlagen. Wahrscheinlich ist das Browser-Timeout von 2 Minuten abgelaufen. Die Seite versucht es in etwa 90 s erneut; besteht das Problem weiter, wenden Sie sich an den Support.',
  retryIn: 'Neu laden in {seconds} s.',
  lastOk: 'Version {version} wurde installiert (vorher: {from}).',
  lastFailed: 'Version {version} ist nicht gestartet; Version {from} läuft wieder.',
  reasons: {
    missing_files: 'Einige Update-Dateien fehlen: Das .zip-Paket und seine .md5-Datei müssen zusammen hochgeladen werden.',
    file_type: 'Falscher Dateityp: Wählen Sie ein .zip-Paket und eine .md5-Datei.',
    file_name: 'Falscher Dateiname: Die .md5-Datei muss nach dem Paket benannt sein, nur mit Buchstaben, Ziffern, _ . -.',
    too_large: 'Die Datei ist zu groß (höchstens {max} Bytes).',
    md5: 'Das Paket passt nicht zu seiner .md5-Datei (bei der Übertragung beschädigt).',
    archive: 'Das Paket ist kein sicheres Archiv ({problem}).',
    signature: 'Das Image ist nicht mit einem vertrauenswürdigen Schlüssel signiert.',
    content: 'Das Image wurde nach dem Signieren verändert ({file}).',
    older: 'Das Image ist für eine ältere Version ({version}) als die laufende ({running}).',
    incompatible: 'Das Image benötigt {kind} {required}; das Gerät hat {installed}.',
    busy: 'Ein Update läuft bereits; es kann nicht abgebrochen werden.',
    unavailable: 'Firmware-Updates sind nicht verfügbar: der Supervisor, der sie installiert, läuft nicht (im Simulator mit npm run supervisor starten).',
    start_failed: 'Die neue Version ist nicht gestartet; die vorherige Version läuft wieder.',
  },
} satisfies NamespaceFirmwareTranslation;

export default de_firmware;
