import { describe, expect, it } from 'vitest';
import { withDefaults } from '../../device/model/section.ts';
import { type LogFile, type LogRecord, logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { WATCH_MAX, watchListRules } from '../../device/model/watch.ts';
import { watchEntry as entry } from '../../test/support/watch-entry.ts';
import { entryOf, filtered, listIssues, loggerVariables, nextEntry, withPicked } from './list.ts';

const point = (o: Partial<LogRecord>) => withDefaults(recordSchema, { name: 'p', ...o }) as LogRecord;
const file = (o: Partial<LogFile>) => withDefaults(logFileSchema, { name: 'f', ...o }) as LogFile;

describe('the watch list checked as the daemon checks it', () => {
  it('a good list has no problem; an address past its area the range, as the daemon’s rules give it', () => {
    expect(listIssues([entry({ reg_addr: '999424' })])).toEqual([]);
    const list = [entry({ reg_addr: '10' }), entry({ reg_addr: '999424', type: 4 })];
    expect(listIssues(list)).toEqual(watchListRules({ entries: list }));
    expect(listIssues(list)).toEqual([{ path: 'entries.1.reg_addr', code: 'address_out_of_range', params: { min: 0, max: 999423 } }]);
    expect(listIssues([entry({ area: 6, reg_addr: 'x' })])[0]).toMatchObject({ path: 'entries.0.reg_addr', code: 'invalid_bit_address' });
  });

  it('what the schema refuses, at its field', () => {
    expect(listIssues([{ ...entry(), plc_addr: 'abc' }])[0]).toMatchObject({ path: 'entries.0.plc_addr' });
    expect(listIssues([{ ...entry(), plc_addr: 100 }])[0]).toMatchObject({ path: 'entries.0.plc_addr', code: 'out_of_range' });
    expect(listIssues([{ ...entry(), format: 'oct' }])[0]).toMatchObject({ path: 'entries.0.format', code: 'invalid_value' });
    expect(listIssues([{ ...entry(), extra: 1 }])[0]).toMatchObject({ code: 'unknown_key' });
    expect(listIssues(Array(WATCH_MAX + 1).fill(entry()))[0]).toMatchObject({ path: 'entries', code: 'too_many' });
  });
});

describe('a new entry', () => {
  it('the defaults first, then after the last entry on its interface and station', () => {
    expect(nextEntry(undefined)).toEqual({ ...entry(), if: 4 });
    expect(nextEntry(entry({ name: 'a', if: 3, plc_addr: 2, reg_addr: '10', type: 4, decimal: 1 }))).toEqual(
      entry({ if: 3, plc_addr: 2, reg_addr: '12', type: 4, decimal: 1 }),
    );
    expect(nextEntry(entry({ reg_addr: '20', type: 13, str_len: 10 }))).toMatchObject({ reg_addr: '27' });
    expect(nextEntry(entry({ area: 6, reg_addr: '10A' }))).toMatchObject({ area: 6, reg_addr: '10A' });
    expect(nextEntry({ ...entry(), reg_addr: 5 })).toEqual({ ...entry(), if: 4 }); // an entry being typed that does not pass: the defaults
  });
});

describe('the data logger’s variables as entries', () => {
  it('each point of each log file, on the station the logger reads it from', () => {
    const log = {
      log_def: [
        file({
          name: 'tanks',
          interface: 0,
          plc_addr: 3,
          records: [
            point({ name: 'own', if: 0, plc_addr: 7, reg_addr: '100', type: 7, endian: 'big', decimal: 2 }),
            point({ name: 'file_station', if: 0, reg_addr: '102' }),
            point({ name: 'other_interface', if: 3, reg_addr: '104' }),
          ],
        }),
        file({ name: 'strings', records: [point({ name: 'text', if: 4, reg_addr: '200', type: 13, str_len: 12, enable_scal: true })] }),
      ],
    };
    const vars = loggerVariables(log);
    expect(vars.map((x) => [x.key, x.file, x.entry.name, x.entry.plc_addr])).toEqual([
      ['0.0', 'tanks', 'own', 7],
      ['0.1', 'tanks', 'file_station', 3],
      ['0.2', 'tanks', 'other_interface', 0],
      ['1.0', 'strings', 'text', 0],
    ]);
    expect(vars[0]!.entry).toEqual(entry({ name: 'own', plc_addr: 7, reg_addr: '100', type: 7, endian: 'big', decimal: 2 }));
    expect(vars[3]!.entry).toEqual(entry({ name: 'text', if: 4, reg_addr: '200', type: 13, str_len: 12 }));
    expect(entryOf(log.log_def[0]!, log.log_def[0]!.records[1]!)).toEqual(vars[1]!.entry);
    expect(listIssues(vars.map((x) => x.entry))).toEqual([]);
    expect(loggerVariables({})).toEqual([]);
    expect(filtered(vars, ' STATION ').map((x) => x.key)).toEqual(['0.1']);
    expect(filtered(vars, '')).toHaveLength(4);
  });

  it('as many as fit in the list', () => {
    const picked = [entry({ name: 'a' }), entry({ name: 'b' }), entry({ name: 'c' })];
    expect(withPicked([entry()], picked)).toEqual({ list: [entry(), ...picked], added: 3 });
    const r = withPicked(Array(WATCH_MAX - 2).fill(entry()), picked);
    expect(r.added).toBe(2);
    expect(r.list).toHaveLength(WATCH_MAX);
    expect(withPicked(Array(WATCH_MAX).fill(entry()), picked).added).toBe(0);
  });
});
