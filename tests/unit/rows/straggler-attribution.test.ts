import { describe, expect, it } from 'vitest';
import { buildStragglerAttribution } from '../../../src-main/core/rows/straggler-attribution';
import type { TimeWindow } from '../../../src-main/core/model/rollout-figures';
import { packedRow as row, span } from './hand-rows';

const window = (startSec: number, endSec: number, kind: 'own' | 'whole' = 'own'): TimeWindow => ({
  startSec,
  endSec,
  durationSec: endSec - startSec,
  kind,
  label: 'hand-built',
});

/** A sample whose own work ends at `workEnd` s while its group-wide span lasts to 100 s. */
const sampleEnding = (rowId: number, workEnd: number) =>
  row(rowId, [
    span('generate_and_rm_group', 1000, 1100),
    span('sglang_generate', 1000, 1000 + workEnd),
  ]);

describe('buildStragglerAttribution', () => {
  it('the last tenth (at least one) and the time only it ran, by own work, group-wide spans apart', () => {
    // three samples: k = ceil(0.3) = 1; the others are done at 60 s, the window ends at 100 s
    const rows = [sampleEnding(0, 40), sampleEnding(1, 90), sampleEnding(2, 60)];
    expect(buildStragglerAttribution(rows, window(0, 100), 1000)).toEqual({
      window: window(0, 100),
      rowIds: [1],
      sampleCount: 1,
      sampleShare: 1 / 3,
      tailSec: 40,
      wallShare: 0.4,
      sentence:
        'the last 1 sample (33.3%) kept the rollout open for 40.0% of its own wall time (40.0 of 100.0 s)',
    });
  });

  it('eleven samples: the last two, latest last, equal ends by row id', () => {
    // work ends 10, 20, ..., 90 s, then rows 10 and 9 both at 95 s
    const rows = [...Array(9).keys()].map((id) => sampleEnding(id, 10 * (id + 1)));
    rows.push(sampleEnding(10, 95), sampleEnding(9, 95));
    const s = buildStragglerAttribution(rows, window(0, 100, 'whole'), 1000)!;
    expect(s.rowIds).toEqual([9, 10]);
    expect(s.sampleCount).toBe(2);
    expect(s.sampleShare).toBe(2 / 11);
    // every other sample was done at 90 s
    expect(s.tailSec).toBe(10);
    expect(s.sentence).toBe(
      'the last 2 samples (18.2%) kept the rollout open for 10.0% of its wall time (10.0 of 100.0 s)',
    );
  });

  it('ends equal across the tail’s edge: the tail is the latest by end, then by row id', () => {
    // twenty samples, k = 2; rows 5, 18 and 19 all end at 95 s: the tail is rows 18 and 19
    // (the highest ids of the tie), and every other sample was done at 95 s too (row 5)
    const rows = [...Array(20).keys()].map((id) =>
      sampleEnding(id, id === 5 || id >= 18 ? 95 : 10 + id),
    );
    const s = buildStragglerAttribution(rows, window(0, 100), 1000)!;
    expect(s.rowIds).toEqual([18, 19]);
    expect(s.tailSec).toBe(5);
  });

  it('one sample: it alone kept the whole window open', () => {
    const s = buildStragglerAttribution([sampleEnding(0, 30)], window(20, 100), 1000)!;
    expect([s.rowIds, s.tailSec, s.wallShare]).toEqual([[0], 80, 1]);
  });

  it('a sample with no work in the window ends with its row', () => {
    // row 0 worked only before the own window (an earlier attempt): its row end, 100 s, counts
    const rows = [sampleEnding(0, 10), sampleEnding(1, 70), sampleEnding(2, 80)];
    const s = buildStragglerAttribution(rows, window(50, 100), 1000)!;
    expect(s.rowIds).toEqual([0]);
    expect(s.tailSec).toBe(20);
    expect(s.wallShare).toBe(0.4);
  });

  it('no tail when the others finished after the window’s end', () => {
    const rows = [sampleEnding(0, 80), sampleEnding(1, 90)];
    const s = buildStragglerAttribution(rows, window(0, 50), 1000)!;
    expect([s.tailSec, s.wallShare]).toEqual([0, 0]);
  });

  it('none for no rows or an empty window', () => {
    expect(buildStragglerAttribution([], window(0, 100), 1000)).toBeNull();
    expect(buildStragglerAttribution([sampleEnding(0, 30)], window(40, 40), 1000)).toBeNull();
  });
});
