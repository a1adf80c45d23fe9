import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import { getRowViews } from '../../../src-main/core/store/row-views';
import { ROW_ITEMS_WHOLE } from '../../../src-main/core/store/row-detail';
import type { ItemView, RowWindow } from '../../../src-main/core/api/trace-api';
import type { SpanItem } from '../../../src-main/core/model/row';
import { laneNames } from '../../../src-renderer/timeline/lane-names';
import { row, span, point } from './hand-rows';

// A GPU rank's shape, past ROW_ITEMS_WHOLE: lane 0 a CPU thread of launches (each a flow's
// start), lane 1 a stream of short kernels (each launched by one), lane 2 a stream of a few
// long kernels, lane 3 instant events only. Times are seconds; the file starts at 0.
const LAUNCHES = 15_000;
function bigRow() {
  const items: ReturnType<typeof span | typeof point>[] = [];
  for (let k = 0; k < LAUNCHES; k++) {
    const t = k * 1e-4;
    items.push(
      span({
        name: 'cudaLaunchKernel',
        start_ts: t,
        end_ts: t + 5e-6,
        span_id: `l${k}`,
        lane_label: k === 0 ? undefined : 'thread 7 (python)',
        lane: 0,
      }),
    );
    items.push(
      span({
        name: `kernel_${k % 13}`,
        start_ts: t + 2e-5,
        end_ts: t + 2e-5 + (k % 50 === 0 ? 3e-4 : 2e-5),
        span_id: `k${k}`,
        category: k % 10 === 0 ? 'communication kernels' : 'computation kernels',
        lane_label: 'GPU 0 stream 7',
        links: [{ trace_id: '', span_id: `l${k}`, dangling: false }],
        lane: 1,
      } as Partial<SpanItem> & Pick<SpanItem, 'name' | 'start_ts'>),
    );
    if (k % 1000 === 0) {
      items.push(span({ name: 'nccl', start_ts: t, end_ts: t + 0.05, lane: 2, depth: 0 }));
      // two that overlap, starting within a few microseconds of each other
      items.push(span({ name: 'wait a', start_ts: t + 0.01, end_ts: t + 0.01003, lane: 2 }));
      items.push(span({ name: 'wait b', start_ts: t + 0.010003, end_ts: t + 0.01003, lane: 2 }));
    }
    if (k === 0) items.push(point({ name: 'lane 4 event', ts: 0.9, lane: 4 }));
    if (k % 3000 === 1) items.push(point({ name: `mark ${k}`, ts: t, lane: 3 }));
  }
  // lane 4's name is its earliest span, which comes last and is narrow
  items.push(span({ name: 'warm-up', start_ts: 1e-5, end_ts: 1.1e-5, lane: 4 }));
  return row({ row_id: 0, start: 0, end: LAUNCHES * 1e-4, lane_count: 5, items });
}

const small = () =>
  row({
    row_id: 1,
    start: 0,
    end: 1,
    items: [span({ name: 'a', start_ts: 0, end_ts: 0.5 }), point({ name: 'p', ts: 0.7 })],
  });

const store = buildStore({ rows: packRows([bigRow(), small()]) });
// every item as the rows' own items say, for the checks below
const whole: ItemView[] = bigRow().items.map((item, index) => ({
  index,
  kind: item.type === 'span' ? 'span' : 'event',
  name: item.name,
  startSec: item.type === 'span' ? item.start_ts : item.ts,
  endSec: item.type === 'span' ? item.display_end_ts : item.ts,
  lane: item.lane,
  depth: item.depth,
  ongoing: false,
  parentIndex: -1,
}));

/** The (lane, depth, pixel) cells the timeline paints for these items in the window. */
function painted(items: readonly ItemView[], window: RowWindow): Set<string> {
  const scale = window.pixels / (window.endSec - window.startSec);
  const cells = new Set<string>();
  for (const item of items) {
    const x0 = (item.startSec - window.startSec) * scale;
    const x1 = Math.max(x0 + 1, (item.endSec - window.startSec) * scale);
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(window.pixels, x1); x++)
      cells.add(`${item.lane}:${item.depth}:${x}`);
  }
  return cells;
}

describe('a row too big to send whole', () => {
  it('is past the bound, and a small row is sent whole whatever the window', () => {
    expect(whole.length).toBeGreaterThan(ROW_ITEMS_WHOLE);
    const window = { startSec: 0.2, endSec: 0.3, pixels: 500 };
    const [plain] = getRowViews(store, [1], window);
    expect(plain.detail).toBeUndefined();
    expect(plain).toStrictEqual(getRowViews(store, [1])[0]);
    expect(plain.items.map((i) => i.name)).toEqual(['a', 'p']);
  });

  it('paints every pixel of the window that all its items paint, with far fewer items', () => {
    for (const window of [
      { startSec: 0, endSec: 1.5, pixels: 1200 },
      { startSec: 0.31, endSec: 0.33, pixels: 800 },
      { startSec: 0.305, endSec: 0.325, pixels: 1600 },
      { startSec: 0.7, endSec: 0.95, pixels: 2000 },
    ]) {
      const [view] = getRowViews(store, [0], window);
      expect(view.detail).toMatchObject({
        itemCount: whole.length,
        resolutionSec: (window.endSec - window.startSec) / window.pixels,
      });
      expect(view.detail!.startSec).toBeLessThan(window.startSec);
      expect(view.detail!.endSec).toBeGreaterThan(window.endSec);
      expect(painted(view.items, window)).toEqual(painted(whole, window));
      // every item at least a pixel wide in the window is sent, overlapping or not
      const resolution = view.detail!.resolutionSec;
      const sent = new Set(view.items.map((i) => i.index));
      for (const item of whole)
        if (item.endSec - item.startSec >= resolution && inWindow(item, window))
          expect(sent.has(item.index)).toBe(true);
      expect(view.items.length).toBeLessThan(whole.length / 2);
      // in index order, each the item it says it is
      for (let k = 1; k < view.items.length; k++)
        expect(view.items[k].index).toBeGreaterThan(view.items[k - 1].index);
      // what is read from the row's items (not the store's columns) is the item's own too:
      // each is read from a checkpoint before it, not by a walk from the row's start
      for (const item of view.items) {
        const source = sourceItems[item.index] as { category?: string; lane_label?: string };
        expect(item).toMatchObject({
          name: whole[item.index].name,
          startSec: whole[item.index].startSec,
          endSec: whole[item.index].endSec,
          lane: whole[item.index].lane,
        });
        expect([item.category, item.laneLabel]).toEqual([source.category, source.lane_label]);
      }
    }
  });

  it('sends every item of a window zoomed in far enough, with their kinds and launches', () => {
    const window = { startSec: 0.5, endSec: 0.501, pixels: 1000 };
    const [view] = getRowViews(store, [0], window);
    const wanted = whole.filter((i) => i.endSec >= 0.4995 && i.startSec <= 0.5015);
    const sent = new Set(view.items.map((i) => i.index));
    for (const item of wanted) expect(sent.has(item.index)).toBe(true);
    const kernel = view.items.find((i) => i.name.startsWith('kernel_') && i.startSec > 0.5)!;
    expect(kernel.category).toMatch(/kernels$/);
    // its launch is the CPU item just before it, sent too: the flow is drawn
    expect(kernel.links).toEqual([kernel.index - 1]);
    expect(view.items.find((i) => i.index === kernel.index - 1)?.name).toBe('cudaLaunchKernel');
  });

  it('names every lane as the whole row does, wherever the window is', () => {
    const names = laneNames({ ...getRowViews(store, [0])[0], items: whole.map(withLabel) });
    expect(names).toEqual(['thread 7 (python)', 'GPU 0 stream 7', 'nccl', 'mark 1', 'warm-up']);
    for (const window of [
      { startSec: 1.2, endSec: 1.3, pixels: 1000 },
      { startSec: 50, endSec: 60, pixels: 1000 },
    ])
      expect(laneNames(getRowViews(store, [0], window)[0])).toEqual(names);
  });

  it('is chosen for the whole row when no window is given, or an empty or endless one', () => {
    for (const window of [
      { startSec: 2, endSec: 2, pixels: 500 },
      { startSec: -1e308, endSec: 1e308, pixels: 500 },
    ]) {
      const [view] = getRowViews(store, [0], window);
      expect([view.detail!.startSec, view.detail!.endSec]).toEqual([
        -LAUNCHES * 1e-4 * 0.5,
        LAUNCHES * 1e-4 * 1.5,
      ]);
    }
    const [view] = getRowViews(store, [0]);
    expect(view.detail!.startSec).toBeLessThanOrEqual(0);
    expect(view.detail!.endSec).toBeGreaterThanOrEqual(1.5);
    const all = { startSec: 0, endSec: 1.5, pixels: 2000 };
    expect(painted(view.items, all)).toEqual(painted(whole, all));
  });
});

function inWindow(item: ItemView, window: RowWindow): boolean {
  return item.endSec >= window.startSec && item.startSec <= window.endSec;
}

/** The lane label the hand-built items carry (whole has only what the store gives every item). */
const sourceItems = bigRow().items;
function withLabel(item: ItemView): ItemView {
  const source = sourceItems[item.index] as { lane_label?: string };
  return source.lane_label ? { ...item, laneLabel: source.lane_label } : item;
}
