// The NoSQL client's control block (spec §9 NoSQL 10 words, default DT370): a request writes one
// row of the data points as a MongoDB document or an InfluxDB point; the queue words as in the SQL
// block, and what a PLC program needs beyond them: the rows written (32 bits), the data point a
// refused row stumbled on, and how long the oldest waiting row has waited. docs/services.md.
import { NOSQL_REGISTERS } from '../sections/nosql.ts';
import { headWords, queueWords } from './common-words.ts';
import type { ControlBlock } from './convention.ts';
import { DB_REQUESTS } from './sql.ts';

export const NOSQL_BLOCK: ControlBlock = {
  service: 'nosql',
  section: 'pew_nosql',
  length: NOSQL_REGISTERS,
  defaultDt: 370,
  requests: DB_REQUESTS,
  words: [
    ...headWords(DB_REQUESTS, 'one document (MongoDB) or point (InfluxDB) of the data points, read when the request is taken'),
    ...queueWords(4, 'rows', 'database'),
    { offset: 6, name: 'written_low', dir: 'unit', meaning: 'rows written since the engine started, low word (with written_high a 32-bit count that wraps)' },
    { offset: 7, name: 'written_high', dir: 'unit', meaning: 'rows written since the engine started, high word' },
    {
      offset: 8,
      name: 'error_point',
      dir: 'unit',
      meaning: 'the data point (1 = first of the list) whose address, type or value refused the last row; 0 = none',
    },
    { offset: 9, name: 'oldest_wait', dir: 'unit', meaning: 'seconds the oldest waiting row has waited (0 when none waits; stays at 65535)', unit: 's' },
  ],
};
