import { describe, expect, it } from 'vitest';
import type { ItemView, RowView, RunResult } from '../../../src-main/core/api/trace-api';
import { placeBands } from '../../../src-renderer/run/run-bands';
import {
  laneKeyOf,
  parseLaneKey,
  runLaneGroups,
  runSelectionOf,
  serverKey,
} from '../../../src-renderer/run/run-lanes';
import {
  GROUP_HEADER_PX,
  laneSpanNames,
  layoutLaneGroups,
  shiftRow,
} from '../../../src-renderer/timeline/lane-group';
import { ROW_PADDING } from '../../../src-renderer/timeline/row-layout';

const item = (index: number, name: string, startSec: number, endSec: number, lane = 0) =>
  ({
    index,
    kind: 'span',
    name,
    startSec,
    endSec,
    lane,
    depth: lane,
    ongoing: false,
    parentIndex: -1,
  }) as ItemView;
const rowView = (rowId: number, items: ItemView[], laneCount = 1) =>
  ({
    rowId,
    sampleIndex: rowId,
    source: null,
    startSec: 0,
    endSec: 2,
    laneCount,
    items,
  }) as unknown as RowView;
const link = (file: number, rowId: number, rid: string) =>
  ({
    client: { file: 0, rowId: 0, itemIndex: 1 },
    server: { file, rowId, itemIndex: 0 },
    rid,
  }) as unknown as RunResult['joins']['links'][number];

describe('the run band strip', () => {
  it('puts two rollouts whose labels would meet on two lines, never one over the other', () => {
    // the run fixture's case: "rollout 0 · v1" (84 px) starts 10 px before "rollout 1 · v2"
    expect(
      placeBands(
        [
          { x0: 100, x1: 105, labelPx: 84 },
          { x0: 110, x1: 200, labelPx: 84 },
        ],
        2,
      ),
    ).toEqual([
      { line: 0, elided: false },
      { line: 1, elided: false },
    ]);
  });
  it('reuses a line once the marks on it end; past the lines, the label is elided', () => {
    const placed = placeBands(
      [
        { x0: 0, x1: 10, labelPx: 20 },
        { x0: 30, x1: 40, labelPx: 20 },
        { x0: 35, x1: 45, labelPx: 20 },
        { x0: 38, x1: 50, labelPx: 20 },
      ],
      2,
    );
    expect(placed).toEqual([
      { line: 0, elided: false },
      { line: 0, elided: false },
      { line: 1, elided: false },
      { line: 1, elided: true },
    ]);
  });
});

describe('lane groups', () => {
  it('lay out a header per group, then its rows: one lane collapsed, every lane expanded', () => {
    const groups = [
      {
        id: 'a',
        title: 'A',
        rows: [
          { key: 'a1', label: 'a1', laneCount: 3, row: undefined, expanded: false },
          { key: 'a2', label: 'a2', laneCount: 3, row: undefined, expanded: true },
        ],
      },
      { id: 'empty', title: 'E', rows: [] },
      {
        id: 'b',
        title: 'B',
        rows: [{ key: 'b1', label: 'b1', laneCount: 0, row: undefined, expanded: true }],
      },
    ];
    const layout = layoutLaneGroups(groups, 16);
    expect(layout.entries.map((e) => (e.kind === 'header' ? e.group.id : e.row.key))).toEqual([
      'a',
      'a1',
      'a2',
      'b',
      'b1',
    ]);
    expect([...layout.heights]).toEqual([
      GROUP_HEADER_PX,
      16 + ROW_PADDING,
      48 + ROW_PADDING,
      GROUP_HEADER_PX,
      16 + ROW_PADDING,
    ]);
    expect(layout.tops[3]).toBe(GROUP_HEADER_PX + 16 + 48 + 2 * ROW_PADDING);
    expect(layout.total).toBe(layout.tops[4] + layout.heights[4]);
  });

  it('shiftRow moves a row and its items onto the view clock, leaving the row it got alone', () => {
    const row = rowView(3, [item(0, 'x', 1, 2)]);
    const shifted = shiftRow(row, 10);
    expect([shifted.startSec, shifted.endSec]).toEqual([10, 12]);
    expect([shifted.items[0].startSec, shifted.items[0].endSec]).toEqual([11, 12]);
    expect(row.items[0].startSec).toBe(1);
    expect(shiftRow(row, 0)).toBe(row);
  });

  it('the legend lists the span names of the rows fetched, most frequent first', () => {
    const rows = [
      rowView(0, [item(0, 'b', 0, 1), item(1, 'a', 0, 1)]),
      rowView(1, [item(0, 'b', 0, 1)]),
    ];
    const groups = [
      {
        id: 'g',
        title: 'G',
        rows: rows.map((row, i) => ({
          key: `k${i}`,
          label: '',
          laneCount: 1,
          row,
          expanded: false,
        })),
      },
    ];
    expect(laneSpanNames(groups)).toEqual([
      { name: 'b', count: 2 },
      { name: 'a', count: 1 },
    ]);
  });
});

describe('the run tab as lane groups', () => {
  const trainerRow = { ...rowView(0, [item(0, 'weight_convert', 0, 1)], 2), source: 'trainer 0' };
  const samples = [
    { file: 1, rowId: 4, startSec: 0, endSec: 1, rolloutId: 0, stale: false, links: 1 },
    { file: 1, rowId: 5, startSec: 0, endSec: 1, rolloutId: 0, stale: true, links: 0 },
  ];
  const links = new Map([['1:4', [link(2, 7, 'abcdef0123456789')]]]);
  const groupsWith = (opened: Set<string>) =>
    runLaneGroups({
      trainer: [{ file: 3, fileName: 'comm_timeline_v1/slime-trainer-0.jsonl', row: trainerRow }],
      samples,
      views: new Map([['1:4', rowView(4, [item(0, 'sglang_generate', 0, 1)], 4)]]),
      serverViews: new Map([['2:7', rowView(7, [], 12)]]),
      linksBySample: links,
      opened,
    });

  it('names a trainer row by role and rank with its folder, and marks stale samples', () => {
    const [trainer, sampleGroup] = groupsWith(new Set());
    expect(trainer.rows[0]).toMatchObject({
      key: 't:3:0',
      label: 'trainer 0',
      detail: 'comm_timeline_v1',
      laneCount: 2,
      expanded: true,
    });
    expect(sampleGroup.rows.map((r) => [r.key, r.label, r.opens, r.badge, r.expanded])).toEqual([
      ['s:1:4', 'r0 #4', 'closed', undefined, false],
      ['s:1:5', 'r0 #5', undefined, 'stale', false],
    ]);
  });

  it('an opened sample shows its lanes and its request under it, the threads as lanes', () => {
    const [, sampleGroup] = groupsWith(new Set(['1:4']));
    expect(sampleGroup.rows.map((r) => [r.key, r.expanded, r.laneCount, r.depth ?? 0])).toEqual([
      ['s:1:4', true, 4, 0],
      ['v:2:7:abcdef0123456789', true, 12, 1],
      ['s:1:5', false, 1, 0],
    ]);
    expect(sampleGroup.rows[1].label).toBe('SGLang request abcdef01');
  });

  it('keys map to the run selection and back', () => {
    const server = { kind: 'server' as const, file: 2, rowId: 7, rid: 'ab:cd' };
    expect(laneKeyOf(server)).toBe(serverKey({ server, rid: 'ab:cd' }));
    expect(runSelectionOf(laneKeyOf(server), null)).toEqual(server);
    expect(runSelectionOf('s:1:4', 3)).toEqual({ kind: 'sample', file: 1, rowId: 4 });
    expect(runSelectionOf('t:3:0', 5)).toEqual({ kind: 'trainer', file: 3, rowId: 0, index: 5 });
    expect(runSelectionOf('t:3:0', null)).toBeNull();
    expect(parseLaneKey('group:x')).toBeNull();
  });
});
