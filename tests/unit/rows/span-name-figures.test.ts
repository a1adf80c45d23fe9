import { describe, expect, it } from 'vitest';
import { spanNameFigures } from '../../../src-main/core/rows/span-name-figures';
import { spanNamePattern } from '../../../src-main/core/model/span-name-pattern';

// Figures per span-name pattern for files without slime's perf keys (values worked by hand).
describe('spanNamePattern', () => {
  it('replaces ids (6+ hex chars with a digit, or 4+ digits) by *, keeps the rest', () => {
    const cases: [string, string][] = [
      ['decode Req 1a2b3c4d', 'decode Req *'],
      ['prefill Req 03b17c26', 'prefill Req *'],
      ['step 3', 'step 3'],
      ['step 123', 'step 123'],
      ['step 1234', 'step *'],
      ['facade', 'facade'], // hex letters without a digit: a word
      ['abc12', 'abc12'], // too short for an id
      ['abc123', '*'],
      ['trace 0123-4567-89ab done', 'trace * done'],
      ['Decode Scheduler [TP 1]  [DP 0]', 'Decode Scheduler [TP 1]  [DP 0]'],
      ['a 1a2b3c b 9f8e7d', 'a * b *'],
    ];
    expect(cases.map(([name]) => spanNamePattern(name))).toEqual(cases.map(([, want]) => want));
  });
});

describe('spanNameFigures', () => {
  it('patterns of equal count in name order', () => {
    const figures = spanNameFigures([
      { name: 'b', valuesSec: [1] },
      { name: 'a', valuesSec: [1] },
      { name: 'c', valuesSec: [1] },
    ] as never);
    expect(Object.keys(figures).filter((k) => k.endsWith('/count'))).toEqual([
      'span/a/count',
      'span/b/count',
      'span/c/count',
    ]);
  });

  it('pools durations by pattern: count, total, mean, median, max, min; most frequent first', () => {
    const figures = spanNameFigures([
      { name: 'tokenize', valuesSec: [0.5] },
      { name: 'decode Req 1a2b3c4d', valuesSec: [1, 3] },
      { name: 'decode Req 99ffee00', valuesSec: [2, 10] },
      { name: 'alpha', valuesSec: [4] },
    ] as never);
    expect(figures).toEqual({
      'span/decode Req */count': 4,
      'span/decode Req */total': 16,
      'span/decode Req */mean': 4,
      'span/decode Req */median': 2.5,
      'span/decode Req */max': 10,
      'span/decode Req */min': 1,
      'span/alpha/count': 1,
      'span/alpha/total': 4,
      'span/alpha/mean': 4,
      'span/alpha/median': 4,
      'span/alpha/max': 4,
      'span/alpha/min': 4,
      'span/tokenize/count': 1,
      'span/tokenize/total': 0.5,
      'span/tokenize/mean': 0.5,
      'span/tokenize/median': 0.5,
      'span/tokenize/max': 0.5,
      'span/tokenize/min': 0.5,
    });
    // order: by count, then by name
    expect(Object.keys(figures).filter((k) => k.endsWith('/count'))).toEqual([
      'span/decode Req */count',
      'span/alpha/count',
      'span/tokenize/count',
    ]);
  });

  it('the input lists are not changed', () => {
    const values = [3, 1];
    spanNameFigures([
      { name: 'x 123456', valuesSec: values },
      { name: 'x 654321', valuesSec: [2] },
    ] as never);
    expect(values).toEqual([3, 1]);
  });
});
