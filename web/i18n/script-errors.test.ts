// Every error the script parser reports has its text in each language of the console.
import { describe, expect, it } from 'vitest';
import { SCRIPT_ERROR_CODES } from '../../device/model/script/language.ts';
import de from './de/scriptLang/index.ts';
import en from './en/scriptLang/index.ts';
import fr from './fr/scriptLang/index.ts';

describe('script error texts', () => {
  it.each([
    ['en', en],
    ['de', de],
    ['fr', fr],
  ] as const)('%s has a text for every code of the parser', (_l, dict) => {
    const errors = dict.codes as Record<string, string>;
    expect(SCRIPT_ERROR_CODES.filter((c) => !errors[c]?.trim())).toEqual([]);
    expect(Object.keys(errors).sort()).toEqual([...SCRIPT_ERROR_CODES].sort());
  });
});
