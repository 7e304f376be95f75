// Codes and fixed English words from the unit are shown in the console's language.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadFullLocales } from '../../test/support/locales.ts';
import { i18nObject } from './i18n-util.ts';
import { appNameText, auditActionText, plcFamilyText } from './unit-values.ts';

// every action the daemon writes into the audit log (device/**: `action: '…'`)
const DAEMON_ACTIONS = [
  'audit_download',
  'backup',
  'cert_delete',
  'config_save',
  'factory_reset',
  'factory_reset_done',
  'firmware_result',
  'firmware_update',
  'lockout',
  'logfile_delete',
  'login_failed',
  'login_ok',
  'logout',
  'password_change',
  'password_change_failed',
  'restore',
  'script_write',
  'service_change',
  'service_change_failed',
  'session_end',
  'setup',
  'user_add',
  'user_remove',
  'webfile_delete',
];

describe('values from the unit', () => {
  beforeAll(() => loadFullLocales());

  it('every audit action has a text in every language; an unknown one is shown as it came', () => {
    for (const l of ['en', 'de', 'fr'] as const) {
      const t = i18nObject(l);
      for (const a of DAEMON_ACTIONS) expect(auditActionText(t, a), `${l} ${a}`).not.toBe(a);
    }
    const de = i18nObject('de');
    expect(auditActionText(de, 'login_ok')).toBe('Anmeldung');
    expect(auditActionText(de, 'something_new')).toBe('something_new');
  });

  it('the unknown PLC family and the HMI runtime app read in the language', () => {
    const fr = i18nObject('fr');
    expect(plcFamilyText(fr, 'unknown')).toBe('inconnu');
    expect(plcFamilyText(fr, 'FP0R')).toBe('FP0R');
    expect(appNameText(fr, 'HMI runtime')).toBe('Runtime IHM');
    expect(appNameText(fr, 'Customer app')).toBe('Customer app');
  });
});
