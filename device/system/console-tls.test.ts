// The names of the console's generated certificate, and security.md INJ-1 for the openssl call
// that makes it: only checked names and addresses reach its argument list, never through a shell.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { certificateNames } from './console-tls.ts';

describe('console certificate names', () => {
  it('covers the host name, <name>.local, localhost, loopback and the addresses, sorted', () => {
    expect(certificateNames('Communicator', ['192.168.1.10', '10.0.0.2'])).toEqual({
      dns: ['communicator', 'communicator.local', 'localhost'],
      ips: ['10.0.0.2', '127.0.0.1', '192.168.1.10', '::1'],
    });
    expect(certificateNames('gw.plant.example', []).dns).toEqual(['gw.plant.example', 'localhost']);
  });

  it('drops a host name or address that could add to the openssl arguments (metacharacters, SAN separators)', () => {
    for (const bad of ['x,DNS:evil.example', 'a b', '$(reboot)', 'x;rm -rf /', 'x/CN=evil', 'a\nb', ''])
      expect(certificateNames(bad, []).dns, JSON.stringify(bad)).toEqual(['localhost']);
    expect(certificateNames('u', ['1.2.3.4,IP:6.6.6.6', '1.2.3.4/24', 'evil.example']).ips).toEqual(['127.0.0.1', '::1']);
  });
});

describe('security.md INJ-1: no shell in the daemon', () => {
  it('runs programs only with execFile/spawn/fork and an argument list, never exec or shell: true', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const files: string[] = [];
    const walk = async (dir: string) => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) await walk(p);
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) files.push(p);
      }
    };
    for (const top of ['device', 'hw', 'sim']) await walk(join(root, top));
    const users: string[] = [];
    for (const f of files) {
      const text = await readFile(f, 'utf8');
      if (!text.includes('node:child_process')) continue;
      users.push(f.slice(root.length + 1));
      expect(text, f).not.toMatch(/(?<![.\w])exec(Sync)?\s*\(/); // a RegExp .exec( is no process
      expect(text, f).not.toMatch(/shell\s*:\s*true/);
      expect(text, f).toMatch(/import \{[^}]*\b(execFile|spawn|fork)\b[^}]*\} from 'node:child_process'/);
    }
    expect(users).toContain('device/system/console-tls.ts');
  });
});
