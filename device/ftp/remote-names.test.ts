// The names of the server's directory (remote-names.ts): from one listing, or, when the server
// refuses to list, from SIZE name by name (550: no such file).
import { describe, expect, it } from 'vitest';
import { uniqueName } from '../system/unique-name.ts';
import { remoteNames } from './remote-names.ts';

/** an FTP answer refusing a command, as basic-ftp throws it (FTPError: the reply code as a number) */
const refusal = (code: number) => Object.assign(new Error(`${code} refused`), { code });

function server(files: string[] | 'refuse-list') {
  const sizes: string[] = [];
  return {
    sizes,
    client: {
      list: async () => {
        if (files === 'refuse-list') throw refusal(550);
        return files.map((name) => ({ name }));
      },
      size: async (name: string) => {
        sizes.push(name);
        if (name === 'audit_log.csv') return 47;
        throw refusal(550);
      },
    } as never,
  };
}

describe('remoteNames', () => {
  it('takes the names of one listing, without regard to case, and those given out since', async () => {
    const s = server(['AUDIT_LOG.csv', 'audit_log_1.csv']);
    const taken = await remoteNames(s.client);
    const first = await uniqueName('audit_log.csv', taken);
    taken.add(first);
    expect([first, await uniqueName('audit_log.csv', taken)]).toEqual(['audit_log_2.csv', 'audit_log_3.csv']);
    expect(s.sizes).toEqual([]);
  });

  it('asks SIZE name by name when the server refuses the listing (an upload-only directory)', async () => {
    const s = server('refuse-list');
    const taken = await remoteNames(s.client);
    expect(await uniqueName('audit_log.csv', taken)).toBe('audit_log_1.csv');
    expect(s.sizes).toEqual(['audit_log.csv', 'audit_log_1.csv']);
    taken.add('audit_log_1.csv');
    expect(await uniqueName('audit_log.csv', taken)).toBe('audit_log_2.csv');
  });

  it('passes on a failure that is no refusal (the connection broke)', async () => {
    const broken = { list: async () => Promise.reject(new Error('socket hang up')), size: async () => 0 } as never;
    await expect(remoteNames(broken)).rejects.toThrow('socket hang up');
    const sizeFails = { list: async () => Promise.reject(refusal(550)), size: async () => Promise.reject(refusal(421)) } as never;
    await expect(uniqueName('a.csv', await remoteNames(sizeFails))).rejects.toThrow('421 refused');
  });
});
