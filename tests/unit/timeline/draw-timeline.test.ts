import { resolve } from 'node:path';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { describe, expect, it } from 'vitest';
import { buildStore } from '../../../src-main/core/store/build-store';
import { getRowViews } from '../../../src-main/core/store/row-views';
import type { Row } from '../../../src-main/core/model/row';
import { drawTimeline, type DrawOptions } from '../../../src-renderer/timeline/draw-timeline';
import { colourForName } from '../../../src-renderer/timeline/span-colours';
import { ROW_PADDING } from '../../../src-renderer/timeline/row-layout';
import { SLIME, readJson } from '../../support/fixtures';
import { recordingContext, type DrawCall } from './recording-context';
import { itemView, rowView } from './hand-views';

// rollout_small.pt's expected rows (made by slime's own viewer code, see tests/fixtures/slime/
// README.md): the times and lanes every bar must be drawn at come from there, not from our code.
const expected = readJson<{ rows: Row[]; global_start: number; global_end: number }>(
  resolve(SLIME, 'rollout_small.pt.expected.json'),
);
const store = buildStore({ rows: packRows(expected.rows) });
const view = (rowId: number) => getRowViews(store, [rowId])[0];
const g0 = expected.global_start;
const THEME = {
  bg: '#ffffff',
  rowAlt: '#f4f4f4',
  grid: '#e0e0e0',
  fg: '#111111',
  fgMuted: '#666666',
  danger: '#d1242f',
  accent: '#2f6feb',
};
const options = (over: Partial<DrawOptions> = {}): DrawOptions => ({
  width: 1000,
  height: 400,
  window: { startSec: 0, endSec: expected.global_end - g0 },
  theme: THEME,
  hiddenNames: new Set(),
  highlightNames: null,
  selected: null,
  ...over,
});
const bars = (calls: DrawCall[]) =>
  calls.filter(
    (c): c is Extract<DrawCall, { op: 'fillRect' }> => c.op === 'fillRect' && c.h === 14,
  );
const texts = (calls: DrawCall[]) =>
  calls.filter((c): c is Extract<DrawCall, { op: 'fillText' }> => c.op === 'fillText');

// row 1: 16 closed spans over 5 lanes and one instant event (the fixture README's "small" row)
const ROW = expected.rows[1];
const spans = ROW.items.filter((i) => i.type === 'span');
const events = ROW.items.filter((i) => i.type !== 'span');

describe('drawTimeline against a recording context', () => {
  it('draws each span of an expanded row as one bar at the x its times give, in its lane', () => {
    expect(spans.length).toBe(16);
    const { ctx, calls } = recordingContext();
    const o = options();
    const scale = o.width / (o.window.endSec - o.window.startSec);
    const result = drawTimeline(
      ctx,
      [{ row: view(ROW.row_id), y: 40, expanded: true, shaded: false, dimmed: false }],
      o,
    );
    const drawn = bars(calls);
    expect(drawn.length).toBe(16);
    for (const span of spans) {
      const x0 = (span.start_ts! - g0) * scale;
      const x1 = Math.max(
        x0 + 1,
        ((span as { display_end_ts: number }).display_end_ts - g0) * scale,
      );
      const top = 40 + ROW_PADDING / 2 + span.lane * 16 + 1;
      const bar = drawn.find(
        (b) => Math.abs(b.x - x0) < 1e-6 && b.y === top && b.fill === colourForName(span.name),
      );
      expect(bar, `${span.name} at lane ${span.lane}`).toBeDefined();
      expect(bar!.w).toBeCloseTo(x1 - x0, 6);
    }
    expect(result.stats.get(ROW.row_id)).toMatchObject({
      bars: 16,
      markers: events.length,
      ongoing: 0,
    });
    // a hit box per bar and one per marker
    expect(result.hits.filter((h) => !h.point).length).toBe(16);
    expect(result.hits.filter((h) => h.point).length).toBe(events.length);
  });

  it('puts every bar of a collapsed row in one lane, with one label per bar at most and no text over text', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [{ row: view(ROW.row_id), y: 0, expanded: false, shaded: false, dimmed: false }],
      options(),
    );
    const drawn = bars(calls);
    expect(new Set(drawn.map((b) => b.y))).toEqual(new Set([ROW_PADDING / 2 + 1]));
    const labels = texts(calls).filter((t) => t.fill === '#ffffff' || t.fill === THEME.fg);
    expect(labels.length).toBe(result.stats.get(ROW.row_id)!.labels);
    expect(labels.length).toBeGreaterThan(0);
    expect(labels.length).toBeLessThanOrEqual(16);
    const sorted = [...labels].sort((a, b) => a.x - b.x);
    for (let k = 1; k < sorted.length; k++) {
      expect(sorted[k].x).toBeGreaterThanOrEqual(sorted[k - 1].x + sorted[k - 1].width);
    }
    // a label sits on the part of its bar that is still visible: the last bar drawn under the
    // label's middle is the one it names (bars on top hide those below)
    for (const label of labels.filter((t) => t.fill === '#ffffff')) {
      const mid = label.x + label.width / 2;
      const onTop = drawn.filter((b) => b.x <= mid && b.x + b.w >= mid).pop()!;
      // (names may share a colour: any of them will do)
      const names = spans
        .filter((sp) => colourForName(sp.name) === onTop.fill)
        .map((sp) => sp.name);
      const head = label.text.split(' · ')[0].replace(/…$/, '');
      expect(
        names.some((n) => n.startsWith(head)),
        `${label.text} over ${names.join(',')}`,
      ).toBe(true);
    }
    // each label names its bar (whole or cut with an ellipsis)
    const names = new Set(spans.map((s) => s.name));
    for (const label of labels) {
      const head = label.text.split(' · ')[0].replace(/…$/, '');
      expect([...names].some((n) => n.startsWith(head))).toBe(true);
    }
  });

  it('clips to the window: spans outside it draw nothing, those inside keep their x', () => {
    const sorted = [...spans].sort((a, b) => a.start_ts! - b.start_ts!);
    const late = sorted[sorted.length - 1];
    // a window that ends well before the last span starts (bars get a 2 px margin)
    const window = { startSec: 0, endSec: (late.start_ts! - g0) * 0.9 };
    const inside = spans.filter((s) => s.start_ts! - g0 < window.endSec);
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [{ row: view(ROW.row_id), y: 0, expanded: true, shaded: false, dimmed: false }],
      options({ window }),
    );
    expect(result.stats.get(ROW.row_id)!.bars).toBe(inside.length);
    expect(bars(calls).length).toBe(inside.length);
    expect(inside.length).toBeLessThan(16);
  });

  it('draws instant events as markers at their time and hidden names not at all', () => {
    const event = events[0];
    const o = options();
    const scale = o.width / (o.window.endSec - o.window.startSec);
    const { ctx, calls } = recordingContext();
    drawTimeline(
      ctx,
      [{ row: view(ROW.row_id), y: 0, expanded: true, shaded: false, dimmed: false }],
      o,
    );
    // an instant event keeps its time in `ts` in slime's cache
    const x = ((event as unknown as { ts: number }).ts - g0) * scale;
    // sglang_pd_summary is a summary marker: a square 8 px wide centred on x
    expect(event.name).toBe('sglang_pd_summary');
    expect(
      calls.some(
        (c) => c.op === 'path' && c.name === 'rect' && Math.abs(c.args[0] - (x - 4)) < 1e-6,
      ),
    ).toBe(true);
    const hidden = recordingContext();
    const result = drawTimeline(
      hidden.ctx,
      [{ row: view(ROW.row_id), y: 0, expanded: true, shaded: false, dimmed: false }],
      options({ hiddenNames: new Set([spans[0].name, event.name]) }),
    );
    const hiddenCount = spans.filter((s) => s.name === spans[0].name).length;
    expect(result.stats.get(ROW.row_id)!.bars).toBe(16 - hiddenCount);
    expect(result.stats.get(ROW.row_id)!.markers).toBe(
      events.filter((e) => e.name !== event.name).length,
    );
  });

  it('draws lanes at the lane height the density control picks', () => {
    const { ctx, calls } = recordingContext();
    drawTimeline(
      ctx,
      [{ row: view(ROW.row_id), y: 0, expanded: true, shaded: false, dimmed: false }],
      options({ laneHeight: 8 }),
    );
    const ys = calls
      .filter((c) => c.op === 'fillRect' && c.h === 6)
      .map((c) => (c as { y: number }).y);
    expect(new Set(ys)).toEqual(new Set(spans.map((s) => ROW_PADDING / 2 + s.lane * 8 + 1)));
    // no labels fit in an 8 px lane
    expect(texts(calls).length).toBe(0);
  });
});

describe('drawTimeline zoomed far in', () => {
  it('hatches an ongoing span only where the canvas shows it', () => {
    // row 0: two ongoing spans over the whole rollout (slime's cache says open_span)
    const row = expected.rows[0];
    expect(row.items.filter((i) => i.state === 'open_span').length).toBe(2);
    const { ctx, calls } = recordingContext();
    // a microsecond in the middle of the rollout: the spans are ~5e7 canvas widths long
    const result = drawTimeline(
      ctx,
      [{ row: view(row.row_id), y: 0, expanded: true, shaded: false, dimmed: false }],
      options({ window: { startSec: 20, endSec: 20 + 1e-6 } }),
    );
    expect(result.stats.get(row.row_id)!.ongoing).toBe(2);
    const strokes = calls.filter((c) => c.op === 'path' && c.name === 'lineTo').length;
    expect(strokes).toBeLessThan(1000);
  });

  it('draws a lane of 100,000 bars and one of 100,000 marks, each once (a GPU stream)', () => {
    // a GPU rank's stream holds a hundred thousand kernels in one lane: each lane's bars and
    // marks were gathered by copying the lane's list for each one, which held the page for
    // minutes on a 300 MB rank (this test then runs past vitest's time limit, not a bound here)
    const n = 100_000;
    // made here, not by getRowViews: the store sends a row this big for a window, not whole
    const whole = rowView(0, [
      ...Array.from({ length: n }, (_, k) =>
        itemView({ index: k, name: `k${k % 7}`, startSec: k, endSec: k + 0.9 }),
      ),
      ...Array.from({ length: n }, (_, k) =>
        itemView({ index: n + k, kind: 'event', name: 'mark', startSec: k + 0.5, lane: 1 }),
      ),
    ]);
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [{ row: whole, y: 0, expanded: true, shaded: false, dimmed: false }],
      options({ width: 1000, window: { startSec: 0, endSec: n } }),
    );
    // at 100 a pixel: each bar drawn (a pixel wide), none wide enough for a label; the marks
    // of a lane clustered where they overlap, every one counted
    expect(bars(calls).length).toBe(n);
    expect(result.stats.get(0)).toMatchObject({ bars: n, markers: n, labels: 0 });
  });
});
