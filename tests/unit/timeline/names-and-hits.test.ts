import { describe, expect, it } from 'vitest';
import type { ItemView, RowView } from '../../../src-main/core/api/trace-api';
import { laneNames } from '../../../src-renderer/timeline/lane-names';
import { hitAt } from '../../../src-renderer/timeline/hit-test';
import { STATUS_COLOURS, colourForName } from '../../../src-renderer/timeline/span-colours';
import { buildTicks, decimalsFor, niceStep } from '../../../src-renderer/timeline/time-format';

const item = (
  over: Partial<ItemView> & Pick<ItemView, 'name' | 'lane' | 'startSec'>,
): ItemView => ({
  index: 0,
  kind: 'span',
  endSec: over.startSec + 1,
  depth: 0,
  ongoing: false,
  parentIndex: -1,
  ...over,
});
const rowOf = (laneCount: number, items: ItemView[]) =>
  ({ rowId: 1, laneCount, items }) as unknown as RowView;

describe('lane names, by hand-built rows', () => {
  it('the earliest span names its lane, whatever order the items come in', () => {
    const row = rowOf(2, [
      item({ name: 'late', lane: 0, startSec: 5 }),
      item({ name: 'early', lane: 0, startSec: 1 }),
      item({ name: 'same time, later in the list', lane: 0, startSec: 1 }),
      item({ name: 'ev', kind: 'event', lane: 1, startSec: 0 }),
      item({ name: 'span after event', lane: 1, startSec: 3 }),
    ]);
    expect(laneNames(row)).toEqual(['early', 'span after event']);
  });

  it('the first lane label beats every span and every later label', () => {
    const row = rowOf(1, [
      item({ name: 'first span', lane: 0, startSec: 0 }),
      item({ name: 'x', lane: 0, startSec: 2, laneLabel: 'thread A' }),
      item({ name: 'earlier span', lane: 0, startSec: -1 }),
      item({ name: 'y', lane: 0, startSec: 3, laneLabel: 'thread B' }),
    ]);
    expect(laneNames(row)).toEqual(['thread A']);
  });

  it('ignores items outside the row’s lanes; a row without lanes still has one, unnamed if empty', () => {
    const row = rowOf(2, [
      item({ name: 'below', lane: -1, startSec: 0 }),
      item({ name: 'beyond', lane: 2, startSec: 0, laneLabel: 'beyond label' }),
      item({ name: 'beyond event', kind: 'event', lane: 2, startSec: 0 }),
      item({ name: 'negative event', kind: 'event', lane: -1, startSec: 0 }),
      item({ name: 'one', lane: 1, startSec: 0 }),
    ]);
    expect(laneNames(row)).toEqual(['', 'one']);
    expect(laneNames(rowOf(0, []))).toEqual(['']);
    expect(laneNames(rowOf(3, []))).toEqual(['', '', '']);
  });
});

describe('hit test edges', () => {
  const box = (
    over: Partial<{
      x0: number;
      x1: number;
      y0: number;
      y1: number;
      point: boolean;
      index: number;
    }>,
  ) => ({
    rowId: 1,
    index: 0,
    x0: 10,
    x1: 20,
    y0: 100,
    y1: 114,
    point: false,
    ...over,
  });
  it('edges count as inside; a pixel past any edge misses', () => {
    const b = box({});
    for (const [x, y] of [
      [10, 107],
      [20, 107],
      [15, 100],
      [15, 114],
    ])
      expect(hitAt([b], x, y)).toBe(b);
    for (const [x, y] of [
      [9.9, 107],
      [20.1, 107],
      [15, 99.9],
      [15, 114.1],
    ])
      expect(hitAt([b], x, y)).toBeNull();
  });
  it('of two bars the first drawn wins; of two markers too; a marker beats a bar either way round', () => {
    const a = box({ index: 1 });
    const b = box({ index: 2 });
    expect(hitAt([a, b], 15, 107)).toBe(a);
    const m1 = box({ index: 3, point: true });
    const m2 = box({ index: 4, point: true });
    expect(hitAt([m1, m2], 15, 107)).toBe(m1);
    expect(hitAt([m1, a], 15, 107)).toBe(m1);
    expect(hitAt([a, m1, b], 15, 107)).toBe(m1);
    expect(hitAt([], 15, 107)).toBeNull();
  });
});

describe('span colour palette', () => {
  // FNV-1a over the name's UTF-16 code units, written out independently with BigInt
  const bucket = (s: string) => {
    let h = 2166136261n;
    for (let i = 0; i < s.length; i++) h = ((h ^ BigInt(s.charCodeAt(i))) * 16777619n) % 2n ** 32n;
    return Number(h % 11n);
  };
  it('has 11 distinct colours (none a kernel kind’s), one per hash bucket', () => {
    const byBucket = new Map<number, string>();
    for (let k = 0; byBucket.size < 11 && k < 10_000; k++) {
      const name = `span ${k}`;
      const colour = colourForName(name);
      const seen = byBucket.get(bucket(name));
      if (seen) expect(colour, name).toBe(seen);
      else byBucket.set(bucket(name), colour);
    }
    expect(byBucket.size).toBe(11);
    const colours = [...byBucket.values()];
    expect(new Set(colours).size).toBe(11);
    for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });
  it('slime’s fixed names and every status have a colour of their own kind', () => {
    for (const name of [
      'generate_and_rm_group',
      'generate_and_rm',
      'sglang_generate',
      'sglang_generate_stream',
      'reward_model',
      'group_reward_model',
      'tool_call',
    ])
      expect(colourForName(name), name).toMatch(/^#[0-9a-f]{6}$/);
    // the group span is set apart from the per-sample spans drawn over it
    expect(
      new Set(
        [
          'generate_and_rm_group',
          'generate_and_rm',
          'sglang_generate',
          'reward_model',
          'group_reward_model',
          'tool_call',
        ].map(colourForName),
      ).size,
    ).toBe(6);
    for (const status of ['completed', 'truncated', 'aborted', 'failed', 'pending', 'ok', 'error'])
      expect(STATUS_COLOURS[status], status).toMatch(/^#[0-9a-f]{6}$/);
    expect(STATUS_COLOURS.ok).toBe(STATUS_COLOURS.completed);
    expect(STATUS_COLOURS.error).toBe(STATUS_COLOURS.aborted);
  });
});

describe('tick steps at their edges', () => {
  it('a step of nothing, a negative or NaN one is a nanosecond', () => {
    expect([0, -1, NaN].map(niceStep)).toEqual([1e-9, 1e-9, 1e-9]);
  });
  it('exact ladder steps are kept, the next one up taken otherwise', () => {
    expect([1, 1.5, 60, 61, 43200, 43201, 100000].map(niceStep)).toEqual([
      1, 2, 60, 120, 43200, 86400, 172800,
    ]);
    expect([0.1, 0.2, 0.25, 0.5, 0.3 * 3, 1e-6].map(niceStep)).toEqual([
      0.1, 0.2, 0.5, 0.5, 1, 1e-6,
    ]);
    expect([1, 10, 0.1, 0.01, 0.02].map(decimalsFor)).toEqual([0, 0, 1, 2, 2]);
  });
  it('an empty window or canvas has no ticks', () => {
    expect(buildTicks(5, 5, 1000)).toEqual([]);
    expect(buildTicks(5, 4, 1000)).toEqual([]);
    expect(buildTicks(0, 10, 0)).toEqual([]);
    expect(buildTicks(0, 10, -5)).toEqual([]);
  });
  it('ticks cover the window to its end, a second apart', () => {
    // 0..10 s over 1000 px: a step of at least 0.7 s (70 px), labels like "0:01" about 25 px
    const ticks = buildTicks(0, 10, 1000);
    expect(ticks.map((t) => t.sec + 0)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});
