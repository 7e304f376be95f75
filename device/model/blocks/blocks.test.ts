// The control block tables (device/model/blocks): each fits its spec §9 length, uses every offset
// once, has the four words of the convention, and the FTP table keeps the layout PLC programs use.
import { describe, expect, it } from 'vitest';
import { CONFIG_SECTIONS } from '../index.ts';
import { defaultsOf } from '../section.ts';
import { EMAIL_BLOCK } from './email.ts';
import { FTP_BLOCK } from './ftp.ts';
import { HTTP_BLOCK } from './httpc.ts';
import { CONTROL_BLOCKS, checkBlock, errorOfFailure, offsetOf, roleOffset, SERVICE_ERROR, wordsByName } from './index.ts';
import { MQTT_BLOCK, MQTT_SUB_BASE, MQTT_SUB_WORDS, MQTT_SUBSCRIPTIONS } from './mqtt.ts';
import { NOSQL_BLOCK } from './nosql.ts';
import { SQL_BLOCK } from './sql.ts';

describe('control block tables', () => {
  it('are sound: offsets inside the spec length, each once, one word of each role', () => {
    for (const b of CONTROL_BLOCKS) expect(checkBlock(b), b.service).toEqual([]);
    expect(CONTROL_BLOCKS.map((b) => [b.service, b.length])).toEqual([
      ['ftp', 6],
      ['mqtt', 34],
      ['httpc', 14],
      ['email', 7],
      ['sql', 6],
      ['nosql', 10],
    ]);
  });

  it('checkBlock finds an overlap, an offset outside the block and a missing role', () => {
    const bad = {
      ...EMAIL_BLOCK,
      words: [
        ...EMAIL_BLOCK.words.filter((w) => w.role !== 'counter'),
        { offset: 7, name: 'x', dir: 'unit' as const, meaning: '' },
        { offset: 4, name: 'y', dir: 'unit' as const, meaning: '' },
      ],
    };
    expect(checkBlock(bad)).toEqual(['x: offset 7 outside 0-6', 'y: offset 4 used twice', 'one counter word expected']);
  });

  it('MQTT, HTTP, e-mail, SQL and NoSQL use the convention at 0-3; FTP keeps its counter at 5', () => {
    for (const b of [MQTT_BLOCK, HTTP_BLOCK, EMAIL_BLOCK, SQL_BLOCK, NOSQL_BLOCK]) {
      expect([roleOffset(b, 'request'), roleOffset(b, 'state'), roleOffset(b, 'error'), roleOffset(b, 'counter')]).toEqual([0, 1, 2, 3]);
    }
    expect(FTP_BLOCK.words.map((w) => `${w.offset}:${w.name}`)).toEqual(['0:request', '1:state', '2:error', '3:sent', '4:failed', '5:counter']);
  });

  it("the blocks are every section's register footprint length and default start", () => {
    for (const b of CONTROL_BLOCKS) {
      const def = CONFIG_SECTIONS.find((d) => d.key === b.section)!;
      const defaults = defaultsOf(def) as Record<string, unknown>;
      const on = { ...defaults, [Object.keys(defaults).find((k) => k.startsWith('enable_'))!]: true };
      expect(def.registers?.(on as never), b.service).toEqual([{ path: 'plc_control_dt', start: b.defaultDt, length: b.length }]);
    }
  });

  it('the MQTT subscriptions are three groups of six words from offset 15, and word 33 is the subscription error', () => {
    for (let i = 0; i < MQTT_SUBSCRIPTIONS; i++) expect(offsetOf(MQTT_BLOCK, `sub${i + 1}_topic_addr`)).toBe(MQTT_SUB_BASE + i * MQTT_SUB_WORDS);
    expect(offsetOf(MQTT_BLOCK, 'sub3_length')).toBe(32);
    expect(offsetOf(MQTT_BLOCK, 'sub_error')).toBe(33);
  });

  it('wordsByName reads a block by its names', () => {
    const words = Array.from({ length: 14 }, (_, i) => 100 + i);
    expect(wordsByName(HTTP_BLOCK, words)).toMatchObject({ request: 100, path_addr: 104, status_code: 110, queue_dropped: 113 });
  });

  it('one classification: remote failures map onto the shared codes, every code is distinct', () => {
    expect(errorOfFailure('tls_untrusted')).toBe('tls');
    expect(errorOfFailure('not_found')).toBe('server_refused');
    expect(errorOfFailure('bad_reply')).toBe('other');
    expect(new Set(Object.values(SERVICE_ERROR)).size).toBe(Object.keys(SERVICE_ERROR).length);
  });
});
