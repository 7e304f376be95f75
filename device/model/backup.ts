// Backup and restore rules shared by the console and the daemon (spec §5: the backup password is
// optional, 8-32 characters with upper case, lower case, a digit and a special character; backup
// extension .i4csettings; §9 backup password 32).
import * as v from 'valibot';
import { policyPassword } from './fields.ts';

export const BACKUP_PASSWORD_MAX = 32;
export const BACKUP_EXTENSION = '.i4csettings';
export const backupPassword = policyPassword(BACKUP_PASSWORD_MAX);
/** the body of get_backup: no password makes a checksummed backup without secrets */
export const backupRequest = v.strictObject({ password: v.optional(backupPassword) });

/** why a restore was refused (`params.reason` of restore_failed), each with its text in the console */
export const RESTORE_REASONS = [
  'not_a_backup',
  'other_product',
  'newer_version',
  'unknown_version',
  'damaged',
  'password_required',
  'wrong_password',
  'content',
  'invalid_settings',
  'too_large',
] as const;
export type RefusalReason = (typeof RESTORE_REASONS)[number];
