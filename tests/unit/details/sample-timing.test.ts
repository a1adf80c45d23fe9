import { describe, expect, it } from 'vitest';
import type { ItemView, RowView } from '../../../src-main/core/api/trace-api';
import { buildSampleTiming } from '../../../src-renderer/details/sample-timing';

const span = (name: string, startSec: number, endSec: number, depth: number): ItemView =>
  ({
    index: 0,
    kind: 'span',
    name,
    startSec,
    endSec,
    lane: depth,
    depth,
    ongoing: false,
    parentIndex: -1,
  }) as ItemView;

const row = (items: ItemView[], attempt = 0): RowView =>
  ({ rowId: 0, startSec: 0, endSec: 20, attempt, items }) as unknown as RowView;

// A sample's own time, split by its deepest span (issue 48): the parts sum to its duration.
describe('buildSampleTiming', () => {
  it('splits by the deepest span; gaps and unnamed work are other; parts sum to the duration', () => {
    const t = buildSampleTiming(
      row(
        [
          span('generate_and_rm', 0, 20, 0),
          span('sglang_generate', 1, 11, 1),
          span('sglang_pd_prefill_bootstrap_queue', 1, 2, 3),
          span('sglang_pd_prefill', 1, 4, 2),
          span('sglang_pd_decode', 4, 10, 2),
          span('tool_call', 11, 14, 1),
          span('sglang_generate', 14, 16, 1),
          span('reward_model', 17, 19, 1),
        ],
        1,
      ),
    )!;
    expect(t.seconds).toEqual({
      queue: 1,
      prefill: 2,
      decode: 6,
      // 10-11 of the first request and the whole second one
      'generate, not split': 3,
      'tool calls': 3,
      reward: 2,
      // 0-1, 16-17, 19-20 under generate_and_rm only
      other: 3,
    });
    expect(t.durationSec).toBe(20);
    expect(t.turns).toBe(2);
    expect(t.attempts).toBe(2);
    expect(Object.values(t.seconds).reduce((x, y) => x + y, 0)).toBe(20);
  });

  it('legacy [P]/[D] lanes repeat their request: they take no time of their own', () => {
    const lane = { ...span('sglang_generate [P]', 0, 20, 5), pd: { role: 'prefill', phases: [] } };
    const t = buildSampleTiming(row([span('sglang_generate', 0, 20, 0), lane as ItemView]))!;
    expect(t.seconds['generate, not split']).toBe(20);
    expect(t.seconds.prefill).toBe(0);
    expect(t.turns).toBe(1);
  });
});
