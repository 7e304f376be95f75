import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as api from './index.ts';

const dir = fileURLToPath(new URL('.', import.meta.url));
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

describe('device/protocol boundaries (architecture.md)', () => {
  it.each(modules)('%s imports nothing but device/protocol and uses no Node API', (file) => {
    const src = readFileSync(dir + file, 'utf8');
    const specifiers = [...src.matchAll(/^\s*(?:import|export)[^'";]*from\s+'([^']+)'/gm)].map((m) => m[1]);
    for (const s of specifiers) expect(s).toMatch(/^\.\/[a-z0-9-]+\.ts$/);
    expect(src).not.toMatch(/\bBuffer\.\w+\(|new Buffer|\bprocess\.\w|require\(|setTimeout\(|setInterval\(/);
  });

  it('the index re-exports every module', () => {
    const index = readFileSync(`${dir}index.ts`, 'utf8');
    for (const f of modules.filter((m) => m !== 'index.ts')) expect(index).toContain(`'./${f}'`);
    for (const name of [
      'bcc',
      'createMewStreamDecoder',
      'encodeMewRequest',
      'decodeMewReply',
      'planMewRead',
      'crc16Mcrf4xx',
      'decodeStrdData',
      'encodeModbusRequest',
      'createRtuDecoder',
      'createTcpDecoder',
      'parseBitAddress',
      'modbusToPlc',
    ])
      expect(typeof (api as Record<string, unknown>)[name]).toBe('function');
  });
});
