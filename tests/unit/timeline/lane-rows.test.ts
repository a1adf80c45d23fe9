import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import { getRowViews } from '../../../src-main/core/store/row-views';
import type { Row } from '../../../src-main/core/model/row';
import { layoutLaneGroups, type LaneGroup } from '../../../src-renderer/timeline/lane-group';
import { laneDrawRows, lanePictureLabels } from '../../../src-renderer/timeline/lane-rows';
import { laneNames } from '../../../src-renderer/timeline/lane-names';
import { LANE_HEIGHT } from '../../../src-renderer/timeline/row-layout';
import { SLIME, readJson } from '../../support/fixtures';

// rollout_small.pt's rows as slime's own viewer code laid them out (tests/fixtures/slime/README.md)
const expected = readJson<{ rows: Row[] }>(resolve(SLIME, 'rollout_small.pt.expected.json'));
const store = buildStore({ rows: packRows(expected.rows) });
const views = getRowViews(
  store,
  expected.rows.map((r) => r.row_id),
);

/** Two groups of the fixture's rows: the first 5 (the fourth not fetched yet), then 3 more. */
function groups(): LaneGroup[] {
  const lane = (i: number, over: Partial<LaneGroup['rows'][number]> = {}) => ({
    key: `r${i}`,
    label: `#${views[i].sampleIndex}`,
    laneCount: views[i].laneCount,
    row: views[i],
    expanded: false,
    ...over,
  });
  return [
    {
      id: 'a',
      title: 'Samples',
      rows: [
        lane(0, { detail: 'rollout_small.pt' }),
        lane(1, { expanded: true }),
        lane(2, { badge: 'stale', mark: 'stale', depth: 1 }),
        lane(3, { row: undefined }),
        lane(4),
      ],
    },
    { id: 'empty', title: 'Nothing', rows: [] },
    { id: 'b', title: 'Trainer', note: 'own clock', rows: [lane(5), lane(6), lane(7)] },
  ];
}

describe('a lane timeline’s rows as drawn and pictured', () => {
  const layout = layoutLaneGroups(groups(), LANE_HEIGHT);
  // entries: header a, 5 rows, header b, 3 rows (the empty group has no header)
  const all = laneDrawRows(layout, 0, layout.entries.length - 1, 0);

  it('draws each fetched row under its entry index, at its top less the scroll', () => {
    expect(all.map((r) => r.row.rowId)).toEqual([1, 2, 3, 5, 7, 8, 9]);
    expect(all.map((r) => r.row.sampleIndex)).toEqual(
      [0, 1, 2, 4, 5, 6, 7].map((i) => views[i].sampleIndex),
    );
    const scrolled = laneDrawRows(layout, 2, 8, 40);
    expect(scrolled.map((r) => r.row.rowId)).toEqual([2, 3, 5, 7, 8]);
    for (const r of scrolled) expect(r.y).toBe(layout.tops[r.row.rowId] - 40);
    expect(all[1].expanded).toBe(true);
  });

  it('shades every second row of a group, counting again after each title', () => {
    // a: rows 1..5 shade on the 2nd and 4th (the unfetched 4th is not drawn); b: its 2nd
    expect(all.map((r) => r.shaded)).toEqual([false, true, false, false, false, true, false]);
  });

  it('labels titles in capitals with their counts and notes, rows with their names and badges', () => {
    const labels = lanePictureLabels(layout, 0, layout.entries.length - 1, 0);
    expect(labels).toHaveLength(layout.entries.length);
    expect(labels[0].texts.map((t) => t.text)).toEqual(['SAMPLES', '5']);
    expect(labels[0].texts[0].tone).toBe('title');
    expect(labels[6].texts.map((t) => t.text)).toEqual(['TRAINER', '3', 'own clock']);
    expect(labels[1].texts).toEqual([
      { text: `#${views[0].sampleIndex}`, tone: 'fg' },
      { text: 'rollout_small.pt', tone: 'muted' },
    ]);
    expect(labels[3].texts[1]).toMatchObject({ text: 'stale', tone: 'pill', fill: '#e8590c' });
    // a row under another is indented as LaneLabel indents it
    expect(labels[3].x - labels[1].x).toBe(14);
    // an expanded row names its lanes below the first, as the label column does
    expect(views[1].laneCount).toBeGreaterThan(1);
    expect(labels[2].lanes).toEqual({ x: 22, names: laneNames(views[1]).slice(1) });
    expect(labels[1].lanes).toBeUndefined();
    // a row not fetched yet still has its name; every label sits where its entry is
    expect(labels[4].texts[0].text).toBe(`#${views[3].sampleIndex}`);
    labels.forEach((l, i) => {
      expect(l.y).toBe(layout.tops[i]);
      expect(l.height).toBe(layout.heights[i]);
    });
  });
});
