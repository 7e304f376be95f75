// Every error code the daemon can answer has a text of its own in the console (spec §8), so
// errorText never falls back to the generic "Invalid input" for a known code.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../device/model/issues.ts';
import { STATUS_REASONS } from '../../device/model/reasons.ts';
import enErrors from './en/errors/index.ts';
import en from './en/index.ts';

describe('error texts', () => {
  it('has an English text for every error code, and for connection_failed with the shell', () => {
    const errors = enErrors as unknown as Record<string, string>;
    const missing = ERROR_CODES.filter((code) => !errors[code]?.trim());
    expect(missing).toEqual([]);
    expect(en.shell.connectionFailed).toBe('Connection to server failed.');
  });

  it('has a text for every status reason the daemon sends, and none for a reason it does not', () => {
    expect(Object.keys(enErrors.reasons).sort()).toEqual([...STATUS_REASONS].sort());
  });

  it('the PLC test refusals are the words of spec §8', () => {
    expect(enErrors.interface_not_ready).toBe('Selected interface not enabled or settings not saved.');
    expect(enErrors.tcp_port_closed).toBe('TCP port of selected COM port not open.');
  });
});
