// An audit log entry (device/model/users.ts) as one line of text: the
// system log view of /info and the audit table of /users show it, so it is apart from the users
// page's calls (web/api/users.ts), which the first page does not load.

import type { AuditEntry } from '../../device/model/users.ts';

/** One audit entry as one line of text (the system log view and the audit table's details). */
export const auditDetail = (e: AuditEntry) =>
  e.detail
    ? Object.entries(e.detail)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' ')
    : '';
/** One audit entry as a line of the system log view: its time and action as the console's language writes them. */
export const auditLine = (e: AuditEntry, time: string, action: string) =>
  `${time} ${action}${e.user ? ` ${e.user}` : ''}${e.source ? ` @${e.source}` : ''}${e.detail ? ` ${auditDetail(e)}` : ''}`;
