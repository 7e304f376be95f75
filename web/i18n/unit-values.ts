// Values the unit reports as fixed English words or codes, shown in the console's language:
// audit actions (device/system/audit.ts), the PLC family of a PLC test when the CPU code is not
// known (device/com), and the names of the unit's own apps (apps.json, spec §5 versions).
// Anything not listed here is the unit's own name for it and is shown as it came.
// `t` is the console's dictionary (LL.value).
import type { TranslationFunctions } from './i18n-types.ts';

type Texts = Record<string, (() => string) | undefined>;

/** `login_ok` → 'Login' / 'Anmeldung' / 'Connexion'. */
export function auditActionText(t: TranslationFunctions, action: string): string {
  // the dictionary answers an unknown key with an empty text
  const fn = (t.users.auditActions as unknown as Texts)[action];
  return (fn ? fn() : '') || action;
}

/** The CPU family of a PLC test; 'unknown' when the CPU code is not in the table. */
export const plcFamilyText = (t: TranslationFunctions, family: string): string => (family === 'unknown' ? t.com.cpuUnknown() : family);

/** An app the unit lists as installed: the ones of spec §5 by their translated name. */
const APP_NAMES: Record<string, 'hmi' | 'bsp'> = { 'HMI runtime': 'hmi', BSP: 'bsp' };
export function appNameText(t: TranslationFunctions, name: string): string {
  const key = APP_NAMES[name];
  return key ? t.info.versionNames[key]() : name;
}
