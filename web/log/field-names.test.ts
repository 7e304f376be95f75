// Field names in the logger's save errors: the /log page's labels with the place of the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { validateSection, withDefaults } from '../../device/model/section.ts';
import { pew_log } from '../../device/model/sections/log.ts';
import { logFileSchema, recordSchema } from '../../device/model/sections/logfile.ts';
import { loadLocale } from '../i18n/i18n-util.sync.ts';
import { i18nObject } from '../i18n/i18n-util.ts';
import { logFieldText } from './field-names.ts';

const name = (l: 'en' | 'de', path: string) => {
  const { leaf, where } = logFieldText(i18nObject(l).logger, path);
  return [where, leaf?.label?.() ?? ''].filter(Boolean).join(' · ');
};

describe('logger field names', () => {
  beforeAll(() => {
    loadLocale('en');
    loadLocale('de');
  });

  it('names a general field by its /log label, with its help', () => {
    expect(name('en', 'plc_ctrl_wr')).toBe('Control register (DT)');
    expect(logFieldText(i18nObject('en').logger, 'formatfile').leaf?.help?.()).toContain('.cfg');
  });

  it('names a log file field with its file, counted from 1', () => {
    expect(name('en', 'log_def.1.cycle')).toBe('Log file 2 · Log cycle');
    expect(name('en', 'log_def.0')).toBe('Log file 1');
  });

  it('names a data point field with its file and its place in the file', () => {
    expect(name('en', 'log_def.0.records.4.reg_addr')).toBe('Log file 1 · data point 5 · Address');
    expect(name('en', 'log_def.2.records')).toBe('Log file 3');
  });

  it("names the paths of the daemon's own check", () => {
    const issuesOf = (file: object) => {
      const checked = validateSection(pew_log, {
        ...(withDefaults(pew_log.schema, {}) as object),
        log_def: [withDefaults(logFileSchema, { id: 1, name: 'a', ...file })],
      });
      return checked.ok ? [] : checked.issues.map((i) => name('en', i.path));
    };
    expect(issuesOf({ cycle: 0 })).toEqual(['Log file 1 · Log cycle']);
    expect(
      issuesOf({ records: [withDefaults(recordSchema, { id: 1, name: 'x' }), withDefaults(recordSchema, { id: 2, name: 'y', reg_addr: 'abc' })] }),
    ).toEqual(['Log file 1 · data point 2 · Address']);
  });

  it('speaks the console language', () => {
    expect(name('de', 'log_def.0.records.0.reg_addr')).toMatch(/^Logdatei 1 · Datenpunkt 1 · \S+/);
  });

  it('has no label for a field the logger does not have (the console then shows the path)', () => {
    expect(name('en', 'no_such_field')).toBe('');
  });
});
