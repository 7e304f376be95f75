// POP3 or IMAP before SMTP (spec §3 pew_email emailmode 1 and 2; docs/services.md): servers that
// allow sending only to a client that has just logged in to its mailbox. The unit logs in (POP3
// USER/PASS, IMAP LOGIN) over TLS when transfermode_ssl is on, and logs out again at once; port 0
// is the protocol's port (spec §5). Through the section's SOCKS proxy when one is set.
import type { Socket } from 'node:net';
import type { Email } from '../model/sections/email.ts';
import { pop3imapPort } from '../services/mail-test.ts';
import { command, readGreeting, type TlsTrust, tlsHandshake } from '../services/net-probe.ts';
import { connectorOf, socksProxyOf } from '../services/socks-proxy.ts';
import { StepFailure } from '../services/test-run.ts';

const imapQuote = (s: string) => `"${s.replace(/(["\\])/g, '\\$1')}"`;
/** an IMAP server may send untagged lines (`* CAPABILITY …`) before the tagged answer */
const untagged = (line: string) => line.startsWith('* ');

export async function loginBeforeSmtp(e: Email, trust: TlsTrust): Promise<void> {
  const host = e.server_pop3imap;
  const port = e.server_port_pop3imap || pop3imapPort(e.emailmode, e.transfermode_ssl);
  let s: Socket = await connectorOf(socksProxyOf(e))(host, port);
  try {
    if (e.transfermode_ssl) s = await tlsHandshake(host, port, trust, s);
    const refused = (what: string) => (err: unknown) => {
      throw err instanceof StepFailure && err.reason === 'peer_error' ? new StepFailure('auth_failed', `${what}: ${err.message}`) : err;
    };
    if (e.emailmode === 1) {
      await readGreeting(s, (l) => l.startsWith('+OK'));
      await command(s, `USER ${e.server_user}`, (r) => r.startsWith('+OK')).catch(refused('POP3 USER'));
      await command(s, `PASS ${e.server_password}`, (r) => r.startsWith('+OK')).catch(refused('POP3 PASS'));
      await command(s, 'QUIT', () => true).catch(() => undefined);
    } else {
      await readGreeting(s, (l) => /^\* (OK|PREAUTH)\b/i.test(l));
      await command(s, `a1 LOGIN ${imapQuote(e.server_user)} ${imapQuote(e.server_password)}`, (r) => /^a1 OK\b/i.test(r), 10_000, untagged).catch(
        refused('IMAP LOGIN'),
      );
      await command(s, 'a2 LOGOUT', () => true).catch(() => undefined);
    }
  } finally {
    s.destroy();
  }
}
