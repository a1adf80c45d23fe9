import { describe, expect, it } from 'vitest';
import { keptOpenText } from '../../../src-renderer/perf/kept-open';

describe('what kept the rollout open, as the perf view says it', () => {
  it('largest first; parts under 0.1% of the window (float residue between spans) left out', () => {
    // the 100k-sample dump's own window: 96.7 s, of which 0.95 µs fell between two spans
    const seconds = {
      queueing: 3.902,
      prefill: 0.258,
      decode: 91.8,
      'other generation': 0.95e-6,
      'tool calls': 0.9,
      'reward model': 0,
      'other in sample': 0.01,
    };
    expect(keptOpenText(seconds)).toBe(
      'decode 1.53 min, queueing 3.902 s, tool calls 900.0 ms, prefill 258.0 ms',
    );
    // a part at 0.1% stays
    expect(keptOpenText({ decode: 999, prefill: 1 })).toBe('decode 16.65 min, prefill 1.000 s');
  });

  it('nothing when no part took time', () => {
    expect(keptOpenText({ decode: 0, prefill: 0 })).toBe('');
  });
});
