// The FTP send's control block (spec §9 FTP 6 words, default DT200; docs/ftp.md), in the common
// convention: it predates the others, so its counter is the last word.
import { FTP_REGISTERS } from '../sections/ftpc.ts';
import { headWords } from './common-words.ts';
import type { ControlBlock } from './convention.ts';

const requests = { send: 1 } as const;

export const FTP_BLOCK: ControlBlock = {
  service: 'ftp',
  section: 'pew_ftpc',
  length: FTP_REGISTERS,
  defaultDt: 200,
  requests,
  words: [
    ...headWords(requests, 'a send of the waiting files', 5).filter((w) => w.role !== 'counter'),
    { offset: 3, name: 'sent', dir: 'unit', meaning: 'files sent by the last send' },
    { offset: 4, name: 'failed', dir: 'unit', meaning: 'files of the last send that could not be sent (still waiting, not renamed)' },
    ...headWords(requests, '', 5).filter((w) => w.role === 'counter'),
  ],
};
