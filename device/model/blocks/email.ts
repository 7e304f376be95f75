// The e-mail client's control block (spec §9 SMTP 7 words, default DT230): a mail to the
// configured recipients with a text from PLC memory; the subject is the section's, or the text's
// first line; the newest log files attached when the section's store_send says so (a setting of
// the unit, not of the request). docs/services.md.
import { SMTP_REGISTERS } from '../sections/email.ts';
import { headWords, pointerWords } from './common-words.ts';
import type { ControlBlock } from './convention.ts';

export const MAIL_TEXT_MAX = 4096;

export const MAIL_SUBJECT_FROM_TEXT = 2;

const requests = { send: 1, send_subject_from_text: MAIL_SUBJECT_FROM_TEXT } as const;

export const EMAIL_BLOCK: ControlBlock = {
  service: 'email',
  section: 'pew_email',
  length: SMTP_REGISTERS,
  defaultDt: 230,
  requests,
  words: [
    ...headWords(requests, 'a mail (2: the first line of the text is the subject; the newest log files attached when store_send is on)'),
    ...pointerWords(4, 'text', 'the mail text', MAIL_TEXT_MAX),
    { offset: 6, name: 'queue_waiting', dir: 'unit', meaning: 'mails waiting in the queue for the server (0-65535)' },
  ],
};
