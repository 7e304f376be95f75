import { describe, expect, it } from 'vitest';
import { parseExposition } from '../../test/support/exposition.ts';
import { escapeHelp, escapeLabelValue, formatValue, renderExposition } from './exposition.ts';

describe('text exposition format 0.0.4', () => {
  it('writes HELP and TYPE before the samples of each family, one line each', () => {
    const text = renderExposition([
      {
        name: 'a_requests_total',
        type: 'counter',
        help: 'Requests.',
        samples: [
          { labels: { link: 'COM1' }, value: 3 },
          { labels: { link: 'COM2' }, value: 0 },
        ],
      },
      { name: 'a_up', type: 'gauge', help: 'Up.', samples: [{ value: 1 }] },
    ]);
    expect(text).toBe(
      [
        '# HELP a_requests_total Requests.',
        '# TYPE a_requests_total counter',
        'a_requests_total{link="COM1"} 3',
        'a_requests_total{link="COM2"} 0',
        '# HELP a_up Up.',
        '# TYPE a_up gauge',
        'a_up 1',
        '',
      ].join('\n'),
    );
    expect(parseExposition(text).map((f) => [f.name, f.type, f.samples.length])).toEqual([
      ['a_requests_total', 'counter', 2],
      ['a_up', 'gauge', 1],
    ]);
  });

  it('escapes backslash, double quote and line feed in label values, backslash and line feed in help', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect(escapeHelp('say "x"\\ then\nmore')).toBe('say "x"\\\\ then\\nmore');
    const odd = 'on "R10A"\\\nnext';
    const text = renderExposition([{ name: 'x', type: 'gauge', help: 'a\\b\nc', samples: [{ labels: { section: odd, n: 5 }, value: 2 }] }]);
    expect(text).toContain('x{section="on \\"R10A\\"\\\\\\nnext",n="5"} 2\n');
    expect(text.split('\n').filter(Boolean)).toHaveLength(3); // no raw line feed from a value or the help
    const [f] = parseExposition(text);
    expect(f!.help).toBe('a\\b\nc');
    expect(f!.samples[0]!.labels).toEqual({ section: odd, n: '5' });
  });

  it('writes values as Go reads them', () => {
    expect([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -2, 1.5, 1e21, 0.001].map(formatValue)).toEqual([
      'NaN',
      '+Inf',
      '-Inf',
      '0',
      '-2',
      '1.5',
      '1e+21',
      '0.001',
    ]);
  });

  it('leaves out a family without samples', () => {
    expect(renderExposition([{ name: 'a_total', type: 'counter', help: 'h', samples: [] }])).toBe('');
  });

  it('refuses names the format does not allow, a counter without _total, a series or family twice', () => {
    const one = [{ value: 1 }];
    expect(() => renderExposition([{ name: '1abc', type: 'gauge', help: '', samples: one }])).toThrow(/not allowed/);
    expect(() => renderExposition([{ name: 'a-b', type: 'gauge', help: '', samples: one }])).toThrow(/not allowed/);
    expect(() => renderExposition([{ name: 'requests', type: 'counter', help: '', samples: one }])).toThrow(/_total/);
    expect(() => renderExposition([{ name: 'a', type: 'gauge', help: '', samples: [{ labels: { 'bad-name': 'x' }, value: 1 }] }])).toThrow(/label name/);
    expect(() => renderExposition([{ name: 'a', type: 'gauge', help: '', samples: [{ labels: { __name__: 'x' }, value: 1 }] }])).toThrow(/label name/);
    expect(() =>
      renderExposition([
        {
          name: 'a',
          type: 'gauge',
          help: '',
          samples: [
            { labels: { l: 1 }, value: 1 },
            { labels: { l: '1' }, value: 2 },
          ],
        },
      ]),
    ).toThrow(/twice/);
    expect(() =>
      renderExposition([
        { name: 'a', type: 'gauge', help: '', samples: one },
        { name: 'a', type: 'gauge', help: '', samples: one },
      ]),
    ).toThrow(/twice/);
    expect(renderExposition([{ name: 'ns:a_b', type: 'gauge', help: '', samples: one }])).toContain('ns:a_b 1');
  });
});
