import { describe, expect, it } from 'vitest';
import { apiUrl, currentMode, fixedAdmin, machineConfigRedirect, modeFromQuery, parseStoredMode, UNIT_MODE } from './mode.ts';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k), m };
}

describe('mode switches (spec §7)', () => {
  it('is the unit itself by default', () => {
    expect(currentMode('', memory())).toEqual(UNIT_MODE);
    expect(apiUrl(UNIT_MODE, '/config/pew')).toBe('/config/pew');
  });
  it('local test mode prefixes every path with the local server and is remembered', () => {
    const s = memory();
    const m = currentMode('?mode=local&server=http://127.0.0.1:9000/x', s);
    expect(apiUrl(m, '/config/pew_mqtt')).toBe('http://127.0.0.1:9000/config/pew_mqtt');
    expect(currentMode('', s)).toEqual(m);
    expect(fixedAdmin(m)).toBe(true);
    expect(currentMode('?mode=unit', s)).toEqual(UNIT_MODE);
    expect(currentMode('', s)).toEqual(UNIT_MODE);
  });
  it('remote test base needs a valid http(s) origin', () => {
    expect(modeFromQuery('mode=remote&base=https://unit.example:8443')).toEqual({ name: 'remote', base: 'https://unit.example:8443' });
    expect(modeFromQuery('mode=remote&base=javascript:alert(1)')).toBeUndefined();
    expect(fixedAdmin({ name: 'remote', base: 'https://x' })).toBe(false);
  });
  it('cloud mode reads system and service information from a local path only', () => {
    const m = modeFromQuery('mode=cloud&info=/cloud/sys.json')!;
    expect(apiUrl(m, '/rest/api/v1?cache=true&js=true')).toBe('/cloud/sys.json');
    expect(apiUrl(m, '/rest/api/v1/services')).toBe('/cloud/sys.json');
    expect(apiUrl(m, '/config/pew')).toBe('/config/pew');
    expect(modeFromQuery('mode=cloud&info=https://evil/x')).toBeUndefined();
    expect(modeFromQuery('mode=cloud&info=/../x')).toBeUndefined();
  });
  it('a damaged stored mode is the normal mode', () => {
    expect(parseStoredMode('{')).toEqual(UNIT_MODE);
    expect(parseStoredMode('{"name":"remote","base":"ftp://x"}')).toEqual(UNIT_MODE);
  });
  it('redirects to a machine_config URL only', () => {
    expect(machineConfigRedirect('http://u/machine_config/index.html')).toBe('http://u/machine_config/index.html');
    expect(machineConfigRedirect('http://u/config/pew')).toBeUndefined();
  });
});
