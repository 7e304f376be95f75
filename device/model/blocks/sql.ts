// The SQL client's control block (spec §9 SQL 6 words, default DT350): a request inserts one row
// of the data points (pew_sql.datalist) into pew_sql.tablename; rows the database cannot take now
// wait in the queue, whose length and drops the block shows. docs/services.md shows the table
// layout per database and a worked example.
import { SQL_REGISTERS } from '../sections/sql.ts';
import { headWords, queueWords } from './common-words.ts';
import type { ControlBlock } from './convention.ts';

export const DB_REQUESTS = { insert: 1 } as const;

export const SQL_BLOCK: ControlBlock = {
  service: 'sql',
  section: 'pew_sql',
  length: SQL_REGISTERS,
  defaultDt: 350,
  requests: DB_REQUESTS,
  words: [...headWords(DB_REQUESTS, 'one row of the data points (read when the request is taken)'), ...queueWords(4, 'rows', 'database')],
};
