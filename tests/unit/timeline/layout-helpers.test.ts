import { describe, expect, it } from 'vitest';
import {
  LANE_HEIGHT,
  ROW_PADDING,
  expandedFits,
  layoutRows,
  rowAt,
  visibleRange,
} from '../../../src-renderer/timeline/row-layout';
import { fitWindow, panWindow, zoomWindow } from '../../../src-renderer/timeline/time-window';
import { prng } from '../../support/prng';
import { CLUSTER_GAP_PX, clusterMarkers } from '../../../src-renderer/timeline/cluster-markers';
import { cursorCounts } from '../../../src-renderer/timeline/cursor-counts';
import {
  STATUS_COLOURS,
  colourForName,
  colourOfItem,
} from '../../../src-renderer/timeline/span-colours';

describe('row layout', () => {
  // lanes 3, 0, 2, 1; rows 0 and 2 expanded; 16 px lanes and 6 px padding: heights 54, 22, 38, 22
  const layout = () => layoutRows([3, 0, 2, 1], (i) => i % 2 === 0);

  it('stacks rows: expanded ones show every lane (at least one), collapsed ones one', () => {
    expect([LANE_HEIGHT, ROW_PADDING]).toEqual([16, 6]);
    const l = layout();
    expect(Array.from(l.heights)).toEqual([54, 22, 38, 22]);
    expect(Array.from(l.tops)).toEqual([0, 54, 76, 114]);
    expect(l.total).toBe(136);
    expect(Array.from(layoutRows([0], () => true).heights)).toEqual([22]);
    expect(Array.from(layoutRows([4], () => true, 8).heights)).toEqual([38]);
    expect(layoutRows([], () => true).total).toBe(0);
    // one answer for every row: as the same answer per row
    for (const open of [true, false]) {
      expect(layoutRows([3, 0, 2, 1], open, 12)).toEqual(layoutRows([3, 0, 2, 1], () => open, 12));
    }
  });

  it('expandedFits: whether every row expanded fits a height, as the whole layout says', () => {
    const lanes = [3, 0, 2, 1];
    const total = layoutRows(lanes, true).total; // 54 + 22 + 38 + 22
    expect(total).toBe(136);
    for (const height of [0, 53, 135, 136, 137, 1000]) {
      expect(expandedFits(lanes, height), `height ${height}`).toBe(total <= height);
    }
    expect(expandedFits(lanes, 100, 8)).toBe(layoutRows(lanes, true, 8).total <= 100);
    expect(expandedFits([], 0)).toBe(true);
  });

  it('finds the rows a scrolled viewport shows, edges exclusive at the bottom', () => {
    const l = layout();
    expect(visibleRange(l, 0, 54)).toEqual([0, 0]);
    expect(visibleRange(l, 0, 55)).toEqual([0, 1]);
    expect(visibleRange(l, 53, 2)).toEqual([0, 1]);
    expect(visibleRange(l, 54, 1)).toEqual([1, 1]);
    expect(visibleRange(l, 60, 100)).toEqual([1, 3]);
    expect(visibleRange(l, 114, 1000)).toEqual([3, 3]);
    expect(visibleRange(l, 500, 10)).toEqual([3, 3]);
    expect(
      visibleRange(
        layoutRows([], () => false),
        0,
        100,
      ),
    ).toEqual([0, -1]);
  });

  it('finds the row under a y, or -1 past the last or before the first', () => {
    const l = layout();
    expect([0, 53.9, 54, 75.9, 76, 113, 114, 135.9].map((y) => rowAt(l, y))).toEqual([
      0, 0, 1, 1, 2, 2, 3, 3,
    ]);
    expect(rowAt(l, 136)).toBe(-1);
    expect(rowAt(l, -1)).toBe(-1);
    expect(
      rowAt(
        layoutRows([], () => false),
        0,
      ),
    ).toBe(-1);
  });
});

describe('time window', () => {
  it('zooms about an anchor, keeping the time under it', () => {
    expect(zoomWindow({ startSec: 10, endSec: 20 }, 0.5, 0.5)).toEqual({
      startSec: 12.5,
      endSec: 17.5,
    });
    expect(zoomWindow({ startSec: 10, endSec: 20 }, 2, 0)).toEqual({ startSec: 10, endSec: 30 });
    expect(zoomWindow({ startSec: 10, endSec: 20 }, 0.5, 1)).toEqual({ startSec: 15, endSec: 20 });
    const w = zoomWindow({ startSec: 10, endSec: 20 }, 0.1, 0.25);
    expect(w.startSec).toBeCloseTo(12.25, 12);
    expect(w.endSec).toBeCloseTo(13.25, 12);
  });

  it('never zooms in past a microsecond', () => {
    const w = zoomWindow({ startSec: 0, endSec: 1e-6 }, 0.001, 0.5);
    expect(w.endSec - w.startSec).toBeCloseTo(1e-6, 15);
    expect(w.startSec).toBeCloseTo(0, 15);
  });

  it('pans by a fraction of the width', () => {
    expect(panWindow({ startSec: 10, endSec: 20 }, 0.25)).toEqual({ startSec: 12.5, endSec: 22.5 });
    expect(panWindow({ startSec: 10, endSec: 20 }, -1)).toEqual({ startSec: 0, endSec: 10 });
  });

  it('fits a range with a margin, at least a microsecond wide', () => {
    const w = fitWindow(100, 200);
    expect(w.startSec).toBeCloseTo(97, 12);
    expect(w.endSec).toBeCloseTo(203, 12);
    expect(fitWindow(0, 10, 0.5)).toEqual({ startSec: -5, endSec: 15 });
    const point = fitWindow(5, 5, 0.5);
    expect(point.startSec).toBeCloseTo(5 - 0.5e-6, 15);
    expect(point.endSec).toBeCloseTo(5 + 0.5e-6, 15);
  });
});

describe('marker clusters', () => {
  it('merges markers closer than a badge to the previous one, drawn between their first and last', () => {
    const points = [0, 13.9, 27, 41, 80].map((x, index) => ({ x, index }));
    // 13.9 is < 14 from 0; 27 is < 14 from 13.9 (chained); 41 is exactly 14 from 27: its own
    expect(clusterMarkers(points)).toEqual([
      { x: 13.5, x0: 0, x1: 27, count: 3, members: [0, 1, 2] },
      { x: 41, x0: 41, x1: 41, count: 1, members: [3] },
      { x: 80, x0: 80, x1: 80, count: 1, members: [4] },
    ]);
    expect(clusterMarkers(points, 50)).toEqual([
      { x: 40, x0: 0, x1: 80, count: 5, members: [0, 1, 2, 3, 4] },
    ]);
    expect(clusterMarkers([])).toEqual([]);
  });

  it('never draws two badges closer than a badge is wide (they overlapped into a strip)', () => {
    // gaps of 0 to 30 px, as SGLang's `schedule` events fall in a collapsed request row
    const next = prng(48);
    let x = 0;
    const xs = Array.from({ length: 400 }, () => (x += next() * 30));
    const clusters = clusterMarkers(xs.map((at, index) => ({ x: at, index })));
    expect(clusters.length).toBeGreaterThan(50);
    for (let i = 1; i < clusters.length; i++)
      expect(clusters[i].x - clusters[i - 1].x).toBeGreaterThanOrEqual(CLUSTER_GAP_PX);
    expect(clusters.reduce((n, c) => n + c.count, 0)).toBe(400);
  });
});

describe('cursor counts', () => {
  it('counts samples not started, running (ends inclusive) and finished at a time', () => {
    const order = {
      rowIds: Int32Array.from([1, 2, 3, 4]),
      startSec: Float64Array.from([0, 5, 10, 2]),
      endSec: Float64Array.from([4, 10, 12, 5]),
    };
    expect(cursorCounts(order, 5)).toEqual({ notStarted: 1, running: 2, finished: 1 });
    expect(cursorCounts(order, 10)).toEqual({ notStarted: 0, running: 2, finished: 2 });
    expect(cursorCounts(order, -1)).toEqual({ notStarted: 4, running: 0, finished: 0 });
  });
});

describe('span colours', () => {
  it('slime’s own span names have fixed colours', () => {
    expect(colourForName('sglang_generate')).toBe('#f28e2b');
    expect(colourForName('sglang_generate_stream')).toBe('#f28e2b');
    expect(colourForName('generate_and_rm_group')).toBe('#9aa5b1');
    expect(colourForName('tool_call')).toBe('#b07aa1');
    expect(STATUS_COLOURS.completed).toBe('#2da44e');
  });

  it('other names hash (FNV-1a, 32 bit) into the 11 colours beside the kernel kinds', () => {
    // FNV-1a written out independently: offset basis 2166136261, prime 16777619
    const fnv = (s: string) => {
      let h = 2166136261n;
      for (const c of s) h = ((h ^ BigInt(c.charCodeAt(0))) * 16777619n) % 2n ** 32n;
      return Number(h);
    };
    const palette = new Set<string>();
    for (const name of ['decode', 'prefill', 'a', 'zz top', '', 'router.forward', 'X'.repeat(40)]) {
      const colour = colourForName(name);
      expect(colour).toMatch(/^#[0-9a-f]{6}$/);
      palette.add(colour);
      expect(colourForName(name)).toBe(colour);
      // names whose hashes agree mod 11 share a colour; those that differ do not
      for (const other of ['decode', 'prefill', 'a']) {
        expect(colourForName(other) === colour).toBe(fnv(other) % 11 === fnv(name) % 11);
      }
    }
    expect(palette.size).toBeGreaterThan(3);
    // 'a': 0x811c9dc5 ^ 0x61 = 0x811c9da4, times 16777619 mod 2^32 = 0xe40c292c -> 3826002220 % 11 = 7
    expect(fnv('a')).toBe(0xe40c292c);
    expect(colourForName('a')).toBe('#c51b7d');
  });

  it('no two name colours, nor one and a kernel kind’s, are near twins (CIE76 ΔE >= 25)', () => {
    // sRGB -> CIE Lab (D65), written out here: the distance a reader sees between two bars
    const lab = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92;
      });
      const f = (v: number) => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116);
      const x = f((r * 0.4124 + g * 0.3576 + b * 0.1805) / 0.95047);
      const y = f(r * 0.2126 + g * 0.7152 + b * 0.0722);
      const z = f((r * 0.0193 + g * 0.1192 + b * 0.9505) / 1.08883);
      return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
    };
    const distance = (a: string, b: string) => Math.hypot(...lab(a).map((v, i) => v - lab(b)[i]));
    const names = [
      ...new Set(Array.from({ length: 2000 }, (_, i) => colourForName(`aten::op_${i}`))),
    ];
    expect(names).toHaveLength(11);
    const kinds = ['computation', 'communication', 'memory'].map((category) =>
      colourOfItem({ name: 'k', category }),
    );
    for (const [i, a] of names.entries()) {
      for (const b of [...names.slice(i + 1), ...kinds])
        expect(distance(a, b), `${a} ${b}`).toBeGreaterThanOrEqual(25);
    }
  });
});
