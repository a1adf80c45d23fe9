import { describe, expect, it } from 'vitest';
import { buildGroupFigures, median } from '../../../src-main/core/rows/group-figures';
import type { ResumedSample } from '../../../src-main/core/model/rollout-figures';
import type { AttrValue } from '../../../src-main/core/model/row';
import { packedRow as row, span } from './hand-rows';

const GROUP = 'generate_and_rm_group';

/** A sample of `group` whose own work is [start, end] inside a group-wide span to 1030. */
const sample = (rowId: number, group: AttrValue, start: number, end: number, reward: AttrValue) =>
  row(rowId, [span(GROUP, 1000, 1030), span('sglang_generate', start, end)], {
    group_index: group,
    reward,
  });

describe('median (numpy)', () => {
  it('the middle value by number, the mean of the middle two for an even count, 0 for none', () => {
    expect(median([10, 9, 1])).toBe(9); // by number, not as strings (1, 10, 9)
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBe(0);
  });
});

describe('buildGroupFigures', () => {
  it('a group’s band, its slowest sample (ties: the earlier) and its median sample', () => {
    // own work ends 1010, 1025, 1025; every sample starts at 1000 (its group-wide span)
    const rows = [
      sample(0, 0, 1000, 1010, 1),
      sample(1, 0, 1002, 1025, 0),
      sample(2, 0, 1004, 1025, null),
    ];
    expect(buildGroupFigures(rows, [], 1000)).toEqual([
      {
        groupIndex: 0,
        rowIds: [0, 1, 2],
        startSec: 0,
        endSec: 30,
        wallSec: 30,
        slowestRowId: 1,
        slowestEndSec: 25,
        medianSampleSec: 25, // own durations 10, 25, 25
        rewardMean: 0.5, // rewards 1 and 0; the sample without a reward is left out
        rewardStd: 0.5,
        zeroVariance: false,
        resumedSamples: 0,
      },
    ]);
  });

  it('groups in order of first appearance; a null group index makes a group of one', () => {
    const rows = [
      sample(0, 1, 1000, 1010, 0),
      sample(1, null, 1000, 1010, 0),
      sample(2, 0, 1000, 1010, 0),
      sample(3, 1, 1000, 1010, 0),
      sample(4, null, 1000, 1010, 0),
      sample(5, '1', 1000, 1010, 0), // the string "1" is not group 1
      // no group index at all (undefined): groups of one too
      { ...sample(6, null, 1000, 1010, 0), group_index: undefined as never },
      { ...sample(7, null, 1000, 1010, 0), group_index: undefined as never },
    ];
    const groups = buildGroupFigures(rows, [], 1000);
    expect(groups.map((g) => [g.groupIndex, g.rowIds])).toEqual([
      [1, [0, 3]],
      [null, [1]],
      [0, [2]],
      [null, [4]],
      ['1', [5]],
      [undefined, [6]],
      [undefined, [7]],
    ]);
  });

  it('equal rewards in a group of two or more: zero variance (no GRPO learning signal)', () => {
    const rows = [
      sample(0, 0, 1000, 1010, 1),
      sample(1, 0, 1000, 1010, { score: 1 }), // slime's dict reward: its score
      sample(2, 1, 1000, 1010, true), // one reward only: no variance to speak of
      sample(3, 2, 1000, 1010, null),
      sample(4, 2, 1000, 1010, 'n/a'),
    ];
    const groups = buildGroupFigures(rows, [], 1000);
    expect(groups.map((g) => [g.rewardMean, g.rewardStd, g.zeroVariance])).toEqual([
      [1, 0, true],
      [1, 0, false],
      [null, null, false], // no rewards at all
    ]);
  });

  it('a resumed sample counts from its resume, and its earlier attempt is left out', () => {
    // row 0 worked 1000-1005 in the earlier rollout, resumed at 1040 and ended at 1050;
    // row 1 ran 1020-1060
    const rows = [
      row(0, [span('sglang_generate', 1000, 1005), span('sglang_generate', 1040, 1050)]),
      row(1, [span('sglang_generate', 1020, 1060)]),
    ];
    const resumed: ResumedSample = {
      rowId: 0,
      sampleIndex: 0,
      groupIndex: 0,
      startRolloutId: 7,
      earlierStartSec: 0,
      earlierEndSec: 5,
      resumeStartSec: 40,
      idleSec: 35,
    };
    const [g] = buildGroupFigures(rows, [resumed], 1000);
    expect(g.startSec).toBe(20);
    expect(g.endSec).toBe(60);
    expect(g.wallSec).toBe(40);
    expect([g.slowestRowId, g.slowestEndSec]).toEqual([1, 60]);
    expect(g.medianSampleSec).toBe(25); // own durations 10 (1040-1050) and 40
    expect(g.resumedSamples).toBe(1);
  });

  it('a resumed sample with no work after its resume ends with its row', () => {
    // row 0 resumed at 1050 but its last span ended at 1030: its work end is its row end, 1070
    const rows = [
      row(0, [span('sglang_generate', 1000, 1030)], { end: 1070 }),
      row(1, [span('sglang_generate', 1040, 1060)]),
    ];
    const resumed: ResumedSample = {
      rowId: 0,
      sampleIndex: 0,
      groupIndex: 0,
      startRolloutId: 7,
      earlierStartSec: 0,
      earlierEndSec: 30,
      resumeStartSec: 50,
      idleSec: 20,
    };
    const [g] = buildGroupFigures(rows, [resumed], 1000);
    expect([g.slowestRowId, g.slowestEndSec]).toEqual([0, 70]);
  });
});
