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
export const auditLine = (e: AuditEntry) =>
  `${e.time.replace('T', ' ').slice(0, 19)} ${e.action}${e.user ? ` ${e.user}` : ''}${e.source ? ` @${e.source}` : ''}${e.detail ? ` ${auditDetail(e)}` : ''}`;
