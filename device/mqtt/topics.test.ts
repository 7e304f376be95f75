import { describe, expect, it } from 'vitest';
import { checkFilter, checkPublishTopic, topicMatches } from './topics.ts';

describe('MQTT topics', () => {
  it('matches filters with + and #', () => {
    expect(topicMatches('plant/+/level', 'plant/tank1/level')).toBe(true);
    expect(topicMatches('plant/+/level', 'plant/tank1/x/level')).toBe(false);
    expect(topicMatches('plant/#', 'plant')).toBe(true);
    expect(topicMatches('plant/#', 'plant/a/b')).toBe(true);
    expect(topicMatches('plant/a', 'plant/a/b')).toBe(false);
    expect(topicMatches('#', '$SYS/x')).toBe(false);
  });

  it('refuses wildcards in a publish topic and misplaced ones in a filter with bad_string', () => {
    expect(() => checkPublishTopic('a/+/b')).toThrow(expect.objectContaining({ code: 'bad_string' }));
    expect(() => checkPublishTopic('')).toThrow(expect.objectContaining({ code: 'bad_string' }));
    expect(() => checkPublishTopic('plant/tank')).not.toThrow();
    expect(() => checkFilter('a/#/b')).toThrow(expect.objectContaining({ code: 'bad_string' }));
    expect(() => checkFilter('a/b+')).toThrow(expect.objectContaining({ code: 'bad_string' }));
    expect(() => checkFilter('a/+/#')).not.toThrow();
  });
});
