import { describe, expect, it } from 'vitest';
import { PASSWORD_MASK } from '../fields.ts';
import { defaultsOf, maskSection, unmaskSection } from '../section.ts';
import { expectAccepted, expectMaxLength, expectRange, expectRejected } from '../testing.ts';
import { pew_email } from './email.ts';

const on = (x: any) => Object.assign(x, { enable_email: true, server_smtp: 'smtp.example.com', sender: '<plc@example.com>', recipients: '<ops@example.com>' });
/** `<aaa…@ex.de>` of exactly n characters */
const address = (n: number) => `<${'a'.repeat(n - '<@ex.de>'.length)}@ex.de>`;

describe('pew_email', () => {
  it('defaults: off, control register 230, SMTP ports autodetect, SSL on (spec §5, §9)', () => {
    const d = defaultsOf(pew_email);
    expect(d).toMatchObject({ enable_email: false, plc_control_dt: 230, plc_poll: 1, emailmode: 0 });
    expect(d).toMatchObject({ server_smtp_port: 0, server_port_pop3imap: 0, transfermode_ssl: true, sender: '', recipients: '' });
    expectAccepted(pew_email, () => {});
  });

  it('the 7-register control block is reserved only while enabled and must fit the DT area', () => {
    expect(pew_email.registers!(defaultsOf(pew_email))).toEqual([]);
    expect(pew_email.registers!(on(defaultsOf(pew_email)))).toEqual([{ path: 'plc_control_dt', start: 230, length: 7 }]);
    expectAccepted(pew_email, (x) => (x.plc_control_dt = 999424 - 6));
    expectRejected(pew_email, (x) => (x.plc_control_dt = 999424 - 5), 'plc_control_dt', 'address_out_of_range', { min: 0, max: 999418 });
  });

  it('poll 1-120 s; SMTP/POP3 ports 0 (autodetect) to 65535; proxy port 1-65535', () => {
    expectRange(pew_email, (x, n) => (x.plc_poll = n), 'plc_poll', 1, 120, 0.1);
    expectRange(pew_email, (x, n) => (x.server_smtp_port = n), 'server_smtp_port', 0, 65535);
    expectRange(pew_email, (x, n) => (x.server_port_pop3imap = n), 'server_port_pop3imap', 0, 65535);
    expectRange(pew_email, (x, n) => (x.proxy_port = n), 'proxy_port', 1, 65535);
  });

  it('server, sender and recipients are required when enabled; POP3/IMAP server for modes 1 and 2', () => {
    expectAccepted(pew_email, on);
    for (const f of ['server_smtp', 'sender', 'recipients']) expectRejected(pew_email, (x) => Object.assign(on(x), { [f]: '' }), f, 'required');
    expectRejected(pew_email, (x) => Object.assign(on(x), { emailmode: 1 }), 'server_pop3imap', 'required');
    expectAccepted(pew_email, (x) => Object.assign(on(x), { emailmode: 2, server_pop3imap: 'imap.example.com' }));
    expectRejected(pew_email, (x) => (x.emailmode = 3), 'emailmode', 'invalid_value', { allowed: [0, 1, 2] });
  });

  it('addresses in angle brackets, several recipients comma separated (spec §5)', () => {
    expectAccepted(pew_email, (x) => Object.assign(on(x), { recipients: '<a@ex.de>, <b.c@mail.ex.de>,<d@ex.de>' }));
    for (const bad of ['a@ex.de', '<a@ex.de> <b@ex.de>', '<a@ex.de>,', '<a@ex>', '<a b@ex.de>'])
      expectRejected(pew_email, (x) => (x.recipients = bad), 'recipients', 'invalid_email');
    expectRejected(pew_email, (x) => (x.sender = '<a@ex.de>, <b@ex.de>'), 'sender', 'invalid_email');
    expectRejected(pew_email, (x) => (x.sender = 'plc@ex.de'), 'sender', 'invalid_email');
  });

  it('text limits: address 80, recipients 160, subject 128 (spec §9)', () => {
    expectAccepted(pew_email, (x) => (x.sender = address(80)));
    expectRejected(pew_email, (x) => (x.sender = address(81)), 'sender', 'too_long', { max: 80 });
    const two = (n: number) => `${address(80)},${address(n - 81)}`;
    expectAccepted(pew_email, (x) => (x.recipients = two(160)));
    expectRejected(pew_email, (x) => (x.recipients = two(161)), 'recipients', 'too_long', { max: 160 });
    expectMaxLength(pew_email, (x, s) => (x.subject = s), 'subject', 128);
    expectMaxLength(pew_email, (x, s) => (x.server_user = s), 'server_user', 80);
  });

  it('host names for the servers and the proxy', () => {
    expectRejected(pew_email, (x) => (x.server_smtp = 'smtp://mail'), 'server_smtp', 'invalid_host');
    expectRejected(pew_email, (x) => (x.server_pop3imap = 'mail:110'), 'server_pop3imap', 'invalid_host');
    expectRejected(pew_email, (x) => (x.proxy_ip = '-proxy'), 'proxy_ip', 'invalid_host');
  });

  it('password masked on read and kept when the mask comes back', () => {
    expect(pew_email.passwords).toEqual(['server_password']);
    const stored = { ...defaultsOf(pew_email), server_password: 'pw' };
    const shown = maskSection(pew_email, stored);
    expect(shown.server_password).toBe(PASSWORD_MASK);
    expect(unmaskSection(pew_email, shown, stored).server_password).toBe('pw');
  });
});
