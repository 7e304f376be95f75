import { describe, expect, it } from 'vitest';
import type { ServiceName } from '../types.ts';
import { systemctlArgs } from './systemctl.ts';

describe('systemctlArgs', () => {
  it('enables or disables the unit of the same name, now', () => {
    expect(systemctlArgs('sshd', true)).toEqual(['enable', '--now', 'sshd.service']);
    expect(systemctlArgs('dhcp_server', false)).toEqual(['disable', '--now', 'dhcp_server.service']);
  });

  it('refuses a name outside spec §3 before anything runs', () => {
    expect(() => systemctlArgs('sshd --root=/' as ServiceName, true)).toThrow(RangeError);
  });
});
