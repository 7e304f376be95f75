// The HTTP client's control block (spec §9 HTTP 14 words, default DT240): a request with its
// method, a path appended to server_addr, a body from PLC memory or the newest log file, and the
// answer's status code, length and body (bounded) written back. docs/services.md.
import { HTTP_REGISTERS } from '../sections/httpc.ts';
import { headWords, pointerWords, queueWords } from './common-words.ts';
import type { ControlBlock } from './convention.ts';

export const HTTP_PATH_MAX = 256;
export const HTTP_BODY_MAX = 4096;
export const HTTP_ANSWER_MAX = 4096;
/** bit 4 of the request: the body is the newest log file, not PLC memory */
export const HTTP_BODY_LOGFILE = 0x10;

const requests = { get: 1, post: 2, put: 3, delete: 4, post_logfile: 2 | HTTP_BODY_LOGFILE, put_logfile: 3 | HTTP_BODY_LOGFILE } as const;
export const HTTP_METHODS: Readonly<Record<number, string>> = { 1: 'GET', 2: 'POST', 3: 'PUT', 4: 'DELETE' };

export const HTTP_BLOCK: ControlBlock = {
  service: 'httpc',
  section: 'pew_httpc',
  length: HTTP_REGISTERS,
  defaultDt: 240,
  requests,
  words: [
    ...headWords(requests, 'a request: the method, plus 16 for a body from the newest log file'),
    ...pointerWords(4, 'path', 'the path appended to server_addr', HTTP_PATH_MAX),
    ...pointerWords(6, 'body', 'the body (POST, PUT)', HTTP_BODY_MAX, `length of the body in bytes (0-${HTTP_BODY_MAX}; 0 = no body)`),
    { offset: 8, name: 'answer_addr', dir: 'plc', meaning: 'DT address where the answer body is written', unit: 'DT' },
    { offset: 9, name: 'answer_size', dir: 'plc', meaning: `size of that area in bytes (0 = the body is not written; max ${HTTP_ANSWER_MAX})`, unit: 'bytes' },
    { offset: 10, name: 'status_code', dir: 'unit', meaning: 'HTTP status code of the last answer (0 when there was none)' },
    {
      offset: 11,
      name: 'answer_len',
      dir: 'unit',
      meaning: 'length of the last answer body in bytes (more than answer_size when it was cut; 65535 = 65535 or more)',
      unit: 'bytes',
    },
    ...queueWords(12, 'requests', 'server'),
  ],
};
