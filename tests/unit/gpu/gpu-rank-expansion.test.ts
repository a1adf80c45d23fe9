import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { getRowViews } from '../../../src-main/core/store/row-views';
import { gpuProfileLanes } from '../../../src-renderer/run/run-gpu';
import { gpuKey } from '../../../src-renderer/run/run-lanes';
import { gpuLaneGroupOf } from '../../support/gpu-lane-group';
import { laneNames } from '../../../src-renderer/timeline/lane-names';
import {
  LANE_HEIGHT,
  ROW_PADDING,
  defaultExpandedRows,
  layoutRows,
  leadingExpanded,
} from '../../../src-renderer/timeline/row-layout';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

/**
 * A GPU profile opens with its first rank's GPU streams and CPU threads shown, the other ranks
 * too while they fit, as Perfetto and HTA show them; on the real two-rank folder (gpu/README.md:
 * HTA's ranks 0 and 1, GPU streams 7, 23, 25, 84 and 203 on each).
 */
const GPU = resolve(FIXTURES, 'gpu');
const profile = openTraceFile(
  readdirSync(GPU)
    .filter((name) => name.endsWith('.json.gz'))
    .sort()
    .map((name) => fixtureSource(resolve(GPU, name))),
);
const ranks = getRowViews(profile.store, [0, 1]);
const laneCounts = ranks.map((r) => r.laneCount);
/** expanded rows' height less one lane each: what opening a row adds to the collapsed layout */
const collapsed = layoutRows(laneCounts, false).total;
const heightWith = (open: number) => layoutRows(laneCounts, (i) => i < open).total;

describe("a GPU profile's ranks open as far as they fit, the first always", () => {
  it('the folder is two ranks, each with CPU threads and five GPU streams on its lanes', () => {
    expect(ranks.map((r) => r.source)).toEqual(['rank 0', 'rank 1']);
    for (const [k, rank] of ranks.entries()) {
      const names = laneNames(rank);
      for (const stream of [7, 23, 25, 84, 203])
        expect(names).toContain(`GPU ${k} stream ${stream}`);
      expect(names.filter((n) => /^thread \d+ \(python3\.8\)$/.test(n)).length).toBe(2);
    }
  });

  it('the first rank opens even when it alone is taller than the view', () => {
    expect(leadingExpanded(laneCounts, 0)).toBe(1);
    expect(leadingExpanded(laneCounts, heightWith(1) - 1)).toBe(1);
  });

  it('the second opens when both fit, not a pixel before', () => {
    expect(leadingExpanded(laneCounts, heightWith(2) - 1)).toBe(1);
    expect(leadingExpanded(laneCounts, heightWith(2))).toBe(2);
    expect(heightWith(1)).toBeGreaterThan(collapsed);
  });

  it("at 1440x900 (the timeline's rows about 550 px) rank 0 is open, rank 1 is one lane", () => {
    const open = leadingExpanded(laneCounts, 550, LANE_HEIGHT);
    expect(open).toBe(1);
    // rank 0 whole, then rank 1's one lane, within the view
    expect(heightWith(1)).toBeLessThanOrEqual(550);
    expect(heightWith(1)).toBe(
      laneCounts[0] * LANE_HEIGHT + ROW_PADDING + LANE_HEIGHT + ROW_PADDING,
    );
    // at the smallest lane height both fit
    expect(leadingExpanded(laneCounts, 550, 8)).toBe(2);
  });

  it('no rows, none open; rows past one that does not fit stay closed', () => {
    expect(leadingExpanded([], 1000)).toBe(0);
    // four rows collapsed are 88 px; the first 10-lane row opened makes 232, over 200: open
    // all the same, the second not
    expect(leadingExpanded([10, 10, 1, 10], 200)).toBe(1);
    // one-lane rows open at no cost; the 10-lane third does not fit 100 px, nor the fourth after it
    expect(leadingExpanded([1, 1, 10, 1], 100)).toBe(2);
  });
});

describe('the default, as the timeline and report --png open rows', () => {
  it('every row when all fit expanded, whether or not rows open their leading ones', () => {
    const all = heightWith(2);
    expect(defaultExpandedRows(laneCounts, all, LANE_HEIGHT, true)).toBe(2);
    expect(defaultExpandedRows(laneCounts, all, LANE_HEIGHT, false)).toBe(2);
  });
  it('when they do not fit: a GPU profile its leading ranks, other files none', () => {
    expect(defaultExpandedRows(laneCounts, 550, LANE_HEIGHT, true)).toBe(
      leadingExpanded(laneCounts, 550, LANE_HEIGHT),
    );
    expect(defaultExpandedRows(laneCounts, 550, LANE_HEIGHT, true)).toBe(1);
    expect(defaultExpandedRows(laneCounts, 550, LANE_HEIGHT, false)).toBe(0);
  });
});

describe("the run tab's GPU lanes open the same way", () => {
  const lanes = (toggled: Set<string>, fit?: { height: number; laneHeight: number }) => {
    const gpu = gpuProfileLanes({
      file: 3,
      fileName: 'gpu',
      summary: profile.summary,
      rows: ranks,
      fileShiftSec: 0,
      offsetSec: 0,
      toggled,
      ...(fit ? { fit } : {}),
    });
    return gpuLaneGroupOf(gpu).rows.map((r) => [r.label, r.expanded, r.opens]);
  };
  const fit = { height: 550, laneHeight: LANE_HEIGHT };

  it('rank 0 open, rank 1 closed in a 550 px plot; both when they fit', () => {
    expect(lanes(new Set(), fit)).toEqual([
      ['rank 0', true, 'open'],
      ['rank 1', false, 'closed'],
    ]);
    expect(lanes(new Set(), { height: heightWith(2), laneHeight: LANE_HEIGHT })).toEqual([
      ['rank 0', true, 'open'],
      ['rank 1', true, 'open'],
    ]);
  });

  it("a rank's toggle flips it against its default, either way", () => {
    expect(lanes(new Set([gpuKey(3, ranks[1].rowId)]), fit)).toEqual([
      ['rank 0', true, 'open'],
      ['rank 1', true, 'open'],
    ]);
    expect(lanes(new Set([gpuKey(3, ranks[0].rowId)]), fit)).toEqual([
      ['rank 0', false, 'closed'],
      ['rank 1', false, 'closed'],
    ]);
  });

  it('a picture (no plot to fit) draws every rank whole', () => {
    expect(lanes(new Set()).map(([, open]) => open)).toEqual([true, true]);
  });
});
