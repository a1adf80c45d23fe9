import { describe, expect, it } from 'vitest';
import {
  boundingRow,
  buildOwnBreakdown,
  buildWholeBreakdown,
  sameGroup,
} from '../../../src-main/core/rows/wall-time-breakdown';
import {
  WALL_TIME_CATEGORIES,
  type ResumedSample,
  type TimeWindow,
  type WallTimeCategory,
} from '../../../src-main/core/model/rollout-figures';
import type { PackedRow, SpanItem } from '../../../src-main/core/model/row';
import { point, packedRow as row, span } from './hand-rows';

const GROUP = 'generate_and_rm_group';

const window = (startSec: number, endSec: number, kind: 'own' | 'whole' = 'own'): TimeWindow => ({
  startSec,
  endSec,
  durationSec: endSec - startSec,
  kind,
  label: 'hand-built',
});

/** Every category at 0 but the ones given. */
function seconds(
  some: Partial<Record<WallTimeCategory, number>>,
): Record<WallTimeCategory, number> {
  const all = Object.fromEntries(WALL_TIME_CATEGORIES.map((c) => [c, some[c] ?? 0]));
  return all as Record<WallTimeCategory, number>;
}

/** The own window [0, 100] s of a file starting at 1000, attributed to `bounding`. */
const ownSeconds = (rows: PackedRow[]) => buildOwnBreakdown(rows, window(0, 100), 1000).seconds;

describe('buildOwnBreakdown: each moment of the own window as what the bounding sample did', () => {
  it('queueing before its start and in its request’s queue time, then its deepest span, else a gap', () => {
    const bounding = row(1, [
      span(GROUP, 1000, 1100), // group-wide: says nothing of this sample
      point('attempt_start', 1005), // a point event takes no time
      span('generate_and_rm', 1010, 1090), // other in sample
      span('sglang_generate_stream', 1010, 1050, { depth: 1, endAttrs: { queue_time: 5 } }),
      span('sglang_pd_prefill_forward', 1020, 1025, { depth: 2 }),
      span('sglang_pd_decode_forward', 1025, 1045, { depth: 2 }),
      span('tool_call', 1050, 1060, { depth: 1 }),
      span('reward_model', 1070, 1080, { depth: 1 }),
      // slime's legacy [P] lane span repeats its request: not counted
      span('[P] sglang_generate', 1090, 1095, {
        depth: 1,
        endAttrs: { timeline_pd_virtual_role: 'prefill' },
      }),
    ]);
    const other = row(2, [span(GROUP, 1000, 1100), span('sglang_generate', 1000, 1040)]);
    const b = buildOwnBreakdown([other, bounding], window(0, 100), 1000);
    expect(b.boundingRowId).toBe(1);
    expect(b.boundingGroupIndex).toBe(0);
    expect(b.window).toEqual(window(0, 100));
    expect(b.seconds).toEqual(
      seconds({
        queueing: 15, // 1000-1010 not started, 1010-1015 queue_time
        'unsplit request': 10, // 1015-1020, 1045-1050
        prefill: 5,
        decode: 20,
        'tool calls': 10,
        'reward model': 10,
        'other in sample': 20, // 1060-1070, 1080-1090
        'gaps in sample': 10, // 1090-1100: only the group-wide and the [P] span
      }),
    );
  });

  it('a queue time only counts on a generate request, as a positive number, within the request', () => {
    const bounding = row(0, [
      span('sglang_generate', 1000, 1010, { endAttrs: { queue_time: 50 } }), // clamped to 10 s
      span('tool_call', 1010, 1020, { endAttrs: { queue_time: 5 } }),
      span('sglang_generate', 1020, 1030, { endAttrs: { queue_time: '5' } }),
      span('sglang_generate', 1030, 1040, { endAttrs: { queue_time: -5 } }),
      span('reward_model', 1040, 1100),
    ]);
    expect(ownSeconds([bounding])).toEqual(
      seconds({ queueing: 10, 'tool calls': 10, 'unsplit request': 20, 'reward model': 60 }),
    );
  });

  it('where spans of equal depth overlap, the one listed first wins', () => {
    const bounding = row(0, [
      span('generate_and_rm', 1000, 1100),
      span('tool_call', 1020, 1060, { depth: 1 }),
      span('reward_model', 1040, 1080, { depth: 1 }),
    ]);
    expect(ownSeconds([bounding])).toEqual(
      seconds({ 'other in sample': 40, 'tool calls': 40, 'reward model': 20 }),
    );
  });

  it('the deepest of many nested spans wins, listed in any order', () => {
    // span d covers [1000 + d, 1100 - d] at depth d; even depths are tool calls, odd ones the
    // reward model: each outer span shows 1 s on each side, the innermost (d = 9) 1009-1091
    const nested = [3, 7, 0, 9, 5, 1, 8, 2, 6, 4].map((d) =>
      span(d % 2 === 0 ? 'tool_call' : 'reward_model', 1000 + d, 1100 - d, { depth: d }),
    );
    expect(ownSeconds([row(0, nested)])).toEqual(
      seconds({ 'tool calls': 10, 'reward model': 8 + 82 }),
    );
  });

  it('agrees with a scan of every span at every moment (deepest, then first listed)', () => {
    // a fixed pseudo-random row of 60 spans over 1000-1100, depths 0-4
    let seed = 12345;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647; // Park-Miller
    const names = ['tool_call', 'reward_model', 'generate_and_rm', 'sglang_pd_decode_forward'];
    const spans: SpanItem[] = [span('generate_and_rm', 1000, 1100)];
    for (let i = 0; i < 60; i++) {
      const start = 1000 + Math.floor(next() * 90);
      const end = start + 1 + Math.floor(next() * 20);
      const name = names[Math.floor(next() * 4)];
      spans.push(span(name, start, Math.min(end, 1100), { depth: 1 + Math.floor(next() * 4) }));
    }
    const category = (name: string): WallTimeCategory =>
      name === 'tool_call'
        ? 'tool calls'
        : name === 'reward_model'
          ? 'reward model'
          : name === 'generate_and_rm'
            ? 'other in sample'
            : 'decode';
    const expected = seconds({});
    for (let t = 1000; t < 1100; t++) {
      // every span starts and ends on a whole second: each second has one category
      let best: SpanItem | null = null;
      for (const s of spans) {
        if (s.start_ts <= t + 0.5 && t + 0.5 < s.display_end_ts && (!best || s.depth > best.depth))
          best = s;
      }
      expected[category(best!.name)] += 1;
    }
    const got = ownSeconds([row(0, spans)]);
    for (const c of WALL_TIME_CATEGORIES) expect(got[c]).toBeCloseTo(expected[c], 9);
  });

  it('only the bounding sample’s work in the own window counts: before it, it queued', () => {
    // an earlier attempt 1000-1010, then this rollout's request 1060-1080; own window 50-100 s
    const resumed = row(0, [
      span(GROUP, 1000, 1100),
      span('sglang_generate', 1000, 1010),
      span('sglang_generate', 1060, 1080),
    ]);
    const b = buildOwnBreakdown([resumed], window(50, 100), 1000);
    expect(b.seconds).toEqual(
      seconds({ queueing: 10, 'unsplit request': 20, 'gaps in sample': 20 }),
    );
  });

  it('a bounding sample with no span at all: gaps from its row start', () => {
    const bare = row(0, [], { start: 1030, end: 1100 });
    expect(ownSeconds([bare])).toEqual(seconds({ queueing: 30, 'gaps in sample': 70 }));
  });

  it('a span ending exactly where the window starts means the sample had started', () => {
    const b = buildOwnBreakdown(
      [row(0, [span('tool_call', 1000, 1050), span('reward_model', 1070, 1100)])],
      window(50, 100),
      1000,
    );
    expect(b.seconds).toEqual(seconds({ 'gaps in sample': 20, 'reward model': 30 }));
  });

  it('only the window is attributed, though the row goes on after it', () => {
    const b = buildOwnBreakdown(
      [
        row(0, [
          span('tool_call', 1000, 1030),
          span('reward_model', 1040, 1080),
          span('tool_call', 1060, 1070), // wholly after the window
        ]),
      ],
      window(0, 50),
      1000,
    );
    expect(b.seconds).toEqual(
      seconds({ 'tool calls': 30, 'gaps in sample': 10, 'reward model': 10 }),
    );
  });

  it('nothing to attribute without rows or in an empty window', () => {
    const none = {
      seconds: seconds({}),
      boundingRowId: null,
      boundingGroupIndex: null,
      bounding: null,
    };
    expect(buildOwnBreakdown([], window(0, 100), 1000)).toEqual({
      window: window(0, 100),
      ...none,
    });
    const rows = [row(0, [span('tool_call', 1000, 1100)])];
    expect(buildOwnBreakdown(rows, window(100, 100), 1000)).toEqual({
      window: window(100, 100),
      ...none,
    });
  });
});

describe('boundingRow: the slowest sample of the group that ends last', () => {
  it('the group of the latest row end (ties: the earlier row), its slowest own work', () => {
    const rows = [
      row(0, [span('sglang_generate', 1000, 1050)], { group_index: 0 }),
      row(1, [span(GROUP, 1000, 1090), span('sglang_generate', 1000, 1020)], { group_index: 1 }),
      row(2, [span(GROUP, 1000, 1090), span('sglang_generate', 1000, 1060)], { group_index: 1 }),
      row(3, [span(GROUP, 1000, 1090), span('sglang_generate', 1000, 1060)], { group_index: 1 }),
      row(4, [span('sglang_generate', 1000, 1090)], { group_index: 2 }),
    ];
    // rows 1-4 all end at 1090; row 1's group 1 is the first; rows 2 and 3 tie at 1060
    expect(boundingRow(rows)!.row_id).toBe(2);
    expect(boundingRow([])).toBeNull();
  });

  it('a row without a group index is a group of its own', () => {
    const rows = [
      // row 0's own work ends later, but it is not in row 1's group
      row(0, [span('sglang_generate', 1000, 1085)], { group_index: null }),
      row(1, [span(GROUP, 1000, 1090), span('sglang_generate', 1000, 1070)], {
        group_index: null,
      }),
    ];
    expect(boundingRow(rows)!.row_id).toBe(1);
  });
});

describe('sameGroup', () => {
  it('equal group indexes by value; no group index: only the row itself', () => {
    const r = (rowId: number, group_index: PackedRow['group_index']) =>
      row(rowId, [], { group_index, start: 0, end: 0 });
    expect(sameGroup(r(0, [1, 2]), r(1, [1, 2]))).toBe(true);
    expect(sameGroup(r(0, 1), r(1, '1'))).toBe(false);
    expect(sameGroup(r(0, null), r(1, null))).toBe(false);
    expect(sameGroup(r(0, null), r(0, null))).toBe(true);
    const noGroup = (rowId: number) => ({ ...r(rowId, null), group_index: undefined as never });
    expect(sameGroup(noGroup(0), noGroup(1))).toBe(false);
  });
});

describe('buildWholeBreakdown', () => {
  const resumed = (earlierStartSec: number, earlierEndSec: number): ResumedSample => ({
    rowId: 0,
    sampleIndex: 0,
    groupIndex: 0,
    startRolloutId: 7,
    earlierStartSec,
    earlierEndSec,
    resumeStartSec: 50,
    idleSec: 50 - earlierEndSec,
  });

  it('adds, before the own window, the union of the earlier attempts and the idle rest', () => {
    const own = {
      window: window(50, 100),
      seconds: seconds({ 'unsplit request': 30, 'gaps in sample': 20 }),
      boundingRowId: 3,
      boundingGroupIndex: 1,
      bounding: null,
    };
    // earlier attempts 30-60 (to the own window's start: 20 s), 2-10 and 5-20 (together 18 s)
    const whole = buildWholeBreakdown(own, window(0, 100, 'whole'), [
      resumed(30, 60),
      resumed(2, 10),
      resumed(5, 20),
      resumed(55, 55), // no earlier attempt
    ]);
    expect(whole).toEqual({
      window: window(0, 100, 'whole'),
      seconds: seconds({
        'unsplit request': 30,
        'gaps in sample': 20,
        'earlier attempts': 38,
        'idle between attempts': 12,
      }),
      boundingRowId: 3,
      boundingGroupIndex: 1,
      bounding: null,
    });
    expect(own.seconds['earlier attempts']).toBe(0); // the own breakdown is not changed
  });

  it('counts only the time between the whole window’s start and the own window’s', () => {
    const own = {
      window: window(50, 100),
      seconds: seconds({ 'unsplit request': 50 }),
      boundingRowId: 0,
      boundingGroupIndex: 0,
      bounding: null,
    };
    // whole from 10 s: 40 s before the own window, 20 of them an earlier attempt
    const whole = buildWholeBreakdown(own, window(10, 100, 'whole'), [resumed(10, 30)]);
    expect(whole.seconds).toEqual(
      seconds({ 'unsplit request': 50, 'earlier attempts': 20, 'idle between attempts': 20 }),
    );
  });

  it('nothing resumed: the whole breakdown is the own one', () => {
    const own = {
      window: window(0, 100),
      seconds: seconds({ 'unsplit request': 100 }),
      boundingRowId: 0,
      boundingGroupIndex: 0,
      bounding: null,
    };
    expect(buildWholeBreakdown(own, window(0, 100, 'whole'), []).seconds).toEqual(own.seconds);
  });
});
