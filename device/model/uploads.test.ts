import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { toIssues } from './section.ts';
import { certKindOf, certNames, deleteCertRequest, isScriptName, uploadQuery } from './uploads.ts';

const issues = (x: unknown) => {
  const r = v.safeParse(uploadQuery, x);
  return r.success ? [] : toIssues(r.issues).map((i) => `${i.path}:${i.code}`);
};

describe('upload rules (spec §5)', () => {
  it('certificate names per folder: general extensions, TLS also .der and .cer, keys .key and .pem', () => {
    expect(certNames('pew_mqtt')).toEqual(['ca.crt', 'ca.csr', 'ca.pem', 'client.crt', 'client.csr', 'client.pem', 'key.key', 'key.pem']);
    expect(certNames('pew_tls_server')).toEqual([
      'ca.crt',
      'ca.csr',
      'ca.pem',
      'ca.der',
      'ca.cer',
      'server.crt',
      'server.csr',
      'server.pem',
      'server.der',
      'server.cer',
      'key.key',
      'key.pem',
    ]);
    expect(certNames('pew_api')).toContain('server.pem');
    expect(certKindOf('client.crt')).toBe('client');
    expect(certKindOf('other.crt')).toBeUndefined();
  });

  it('the query of each kind: accepted and refused with the field that is wrong', () => {
    expect(issues({ kind: 'cert', section: 'pew_tls_client', name: 'ca.der' })).toEqual([]);
    expect(issues({ kind: 'cert', section: 'pew_mqtt', name: 'ca.der' })).toEqual(['name:file_extension']);
    expect(issues({ kind: 'cert', section: 'pew_mqtt', name: 'server.pem' })).toEqual(['name:file_base_name']);
    expect(issues({ kind: 'cert', section: 'pew_tls', name: 'ca.pem' })).toEqual(['section:invalid_value']);
    expect(issues({ kind: 'webfile', name: 'index.html' })).toEqual([]);
    expect(issues({ kind: 'webfile', name: '..' })).toEqual(['name:invalid_file_name']);
    expect(issues({ kind: 'webfile', name: 'a/b' })).toEqual(['name:invalid_file_name']);
    expect(issues({ kind: 'script', name: 'shift.cfg' })).toEqual([]);
    expect(issues({ kind: 'script', name: 'shift.txt' })).toEqual(['name:file_extension']);
    expect(issues({ kind: 'script', name: `${'a'.repeat(27)}.cfg` })).toEqual(['name:too_long']);
    expect(issues({ kind: 'script', name: '' })).toContain('name:required');
    expect(issues({ kind: 'zip', name: 'a.zip' })).toEqual(['kind:invalid_value']);
    expect(issues({ kind: 'script', name: 'a.cfg', more: '1' })).toEqual(['more:unknown_key']);
  });

  it('script names: a letter or underscore first, .cfg at the end, something before it', () => {
    expect(['a.cfg', '_x.cfg', 'line_2.v1.cfg'].every(isScriptName)).toBe(true);
    expect(['.cfg', '1a.cfg', 'a.CFG', 'a b.cfg', 'a-b.cfg', '../a.cfg'].some(isScriptName)).toBe(false);
  });

  it('delete_cert takes a folder and one of its names', () => {
    expect(v.safeParse(deleteCertRequest, { section: 'pew_email', name: 'key.pem' }).success).toBe(true);
    expect(v.safeParse(deleteCertRequest, { section: 'pew_email', name: 'key.der' }).success).toBe(false);
  });
});
