import { describe, expect, it } from 'vitest';
import type { RowView } from '../../../src-main/core/api/trace-api';
import {
  drawTimeline,
  type DrawOptions,
  type DrawRow,
} from '../../../src-renderer/timeline/draw-timeline';
import { colourForName } from '../../../src-renderer/timeline/span-colours';
import { pdPhaseColour } from '../../../src-main/core/model/pd-phases';
import { drawIdleGap, idleGapsByRow } from '../../../src-renderer/timeline/idle-gaps';
import { formatDuration } from '../../../src-renderer/timeline/time-format';
import { hitAt } from '../../../src-renderer/timeline/hit-test';
import type { FileSummary } from '../../../src-main/core/api/trace-api';
import { recordingContext, type DrawCall } from './recording-context';
import { itemView, rowView } from './hand-views';

// Hand-built rows on a 1000 px canvas showing 0..100 s: 10 px per second, so every x below is
// 10 * the time. Lanes are 16 px, rows padded 6 px: lane l of a row at y has its bar at
// y + 3 + 16 l + 1, 14 px high.
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
  height: 300,
  window: { startSec: 0, endSec: 100 },
  theme: THEME,
  hiddenNames: new Set(),
  highlightNames: null,
  selected: null,
  ...over,
});
const item = itemView;
const drawRow = (row: RowView, over: Partial<DrawRow> = {}): DrawRow => ({
  row,
  y: 0,
  expanded: true,
  shaded: false,
  dimmed: false,
  ...over,
});
const fills = (calls: DrawCall[]) =>
  calls.filter((c): c is Extract<DrawCall, { op: 'fillRect' }> => c.op === 'fillRect');
const strokes = (calls: DrawCall[]) =>
  calls.filter((c): c is Extract<DrawCall, { op: 'strokeRect' }> => c.op === 'strokeRect');
const paths = (calls: DrawCall[], name: string) =>
  calls.filter((c): c is Extract<DrawCall, { op: 'path' }> => c.op === 'path' && c.name === name);
const textsOf = (calls: DrawCall[]) =>
  calls.filter((c): c is Extract<DrawCall, { op: 'fillText' }> => c.op === 'fillText');

describe('drawTimeline on hand-built rows', () => {
  it('paints the background, shades alternate rows and marks a selected row', () => {
    const { ctx, calls } = recordingContext();
    drawTimeline(
      ctx,
      [drawRow(rowView(1, []), { shaded: true }), drawRow(rowView(2, [], 3), { y: 38 })],
      options({ selected: { rowId: 2, index: null } }),
    );
    // row 1 expanded: 2 lanes -> 38 px; row 2: 3 lanes -> 54 px
    expect(fills(calls).map(({ x, y, w, h, fill }) => ({ x, y, w, h, fill }))).toEqual([
      { x: 0, y: 0, w: 1000, h: 300, fill: THEME.bg },
      { x: 0, y: 0, w: 1000, h: 38, fill: THEME.rowAlt },
      { x: 0, y: 38, w: 1000, h: 54, fill: `${THEME.accent}22` },
    ]);
  });

  it('draws a bar at its times, outlines an error in red and a selected item in the foreground', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({ index: 0, name: 'gen', startSec: 10, endSec: 30, lane: 1, error: true }),
          ]),
          { y: 20 },
        ),
      ],
      options({ selected: { rowId: 1, index: 0 } }),
    );
    const top = 20 + 3 + 16 + 1;
    expect(fills(calls).filter((c) => c.h === 14)).toEqual([
      { op: 'fillRect', x: 100, y: top, w: 200, h: 14, fill: colourForName('gen'), alpha: 1 },
    ]);
    expect(strokes(calls)).toEqual([
      { op: 'strokeRect', x: 101, y: top + 1, w: 198, h: 12, stroke: THEME.danger },
      { op: 'strokeRect', x: 99, y: top - 1, w: 202, h: 16, stroke: THEME.fg },
    ]);
    expect(result.hits).toEqual([
      { rowId: 1, index: 0, x0: 100, x1: 300, y0: top, y1: top + 14, point: false },
    ]);
    // "gen · 20.0 s" (12 chars, 72 px at 6 px a character) fits in 200 - 6 px
    expect(textsOf(calls)).toEqual([
      {
        op: 'fillText',
        text: `gen · ${formatDuration(20)}`,
        x: 103,
        y: top + 7.5,
        width: 72,
        fill: '#ffffff',
      },
    ]);
    expect(result.stats.get(1)).toEqual({
      bars: 1,
      markers: 0,
      clusters: 0,
      orphans: 0,
      ongoing: 0,
      pdSegments: 0,
      links: 0,
      labels: 1,
      railMarks: 0,
      idleGaps: 0,
      // nothing highlighted: no bar counts as highlighted
      highlighted: 0,
    });
  });

  it('gives a zero-length span one pixel, and draws nothing past the canvas’ 2 px margin', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({ index: 0, name: 'a', startSec: 50, endSec: 50 }),
            item({ index: 1, name: 'b', startSec: 100.3, endSec: 120 }), // x0 1003 > 1002
            item({ index: 2, name: 'c', startSec: -20, endSec: -0.3 }), // x1 -3 < -2
            item({ index: 3, name: 'd', startSec: 100.1, endSec: 120 }), // x0 1001: drawn
            item({ index: 4, name: 'e', startSec: -20, endSec: -0.1 }), // x1 -1: drawn
          ]),
        ),
      ],
      options(),
    );
    expect(result.hits.map((h) => [h.index, h.x0, h.x1])).toEqual([
      [0, 500, 501],
      [3, 1001, 1200],
      [4, -200, -1],
    ]);
    expect(fills(calls).filter((c) => c.h === 14)).toHaveLength(3);
  });

  it('fades items other than the highlighted name, and every item of a dimmed row', () => {
    const { ctx, calls } = recordingContext();
    const items = [
      item({ index: 0, name: 'keep', startSec: 0, endSec: 10 }),
      item({ index: 1, name: 'other', startSec: 20, endSec: 30 }),
    ];
    drawTimeline(
      ctx,
      [drawRow(rowView(1, items)), drawRow(rowView(2, items), { y: 40, dimmed: true })],
      options({ highlightNames: ['keep'] }),
    );
    const bars = fills(calls).filter((c) => c.h === 14);
    expect(bars.map((b) => b.alpha)).toEqual([1, 0.2, 0.25, 0.25 * 0.2]);
    expect(ctx.globalAlpha).toBe(1);
  });

  it('splits a PD span into its phases, in proportion, over a pale body', () => {
    const { ctx, calls } = recordingContext();
    const phases = [
      { phase: 'bootstrap_queue', durationSec: 1 },
      { phase: 'forward', durationSec: 3 },
    ];
    // 8 s span whose phases sum to 4 s: each phase is its share of the 8 s (over the larger)
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({
              index: 0,
              name: 'req',
              startSec: 10,
              endSec: 18,
              pd: { role: 'prefill', phases },
            }),
            // phases longer than the span: scaled to fit (denominator 10 s over a 5 s span)
            item({
              index: 1,
              name: 'req2',
              startSec: 40,
              endSec: 45,
              lane: 1,
              pd: { role: 'decode', phases: [{ phase: 'forward', durationSec: 10 }] },
            }),
          ]),
        ),
      ],
      options(),
    );
    const bars = fills(calls).filter((c) => c.h === 14);
    expect(bars.map(({ x, w, fill }) => ({ x, w, fill }))).toEqual([
      { x: 100, w: 80, fill: `${pdPhaseColour('prefill', 'forward')}33` },
      { x: 100, w: 10, fill: pdPhaseColour('prefill', 'bootstrap_queue') },
      { x: 110, w: 30, fill: pdPhaseColour('prefill', 'forward') },
      { x: 400, w: 50, fill: `${pdPhaseColour('decode', 'forward')}33` },
      { x: 400, w: 50, fill: pdPhaseColour('decode', 'forward') },
    ]);
    expect(result.stats.get(1)!.pdSegments).toBe(3);
    // PD labels are in the foreground colour (the bar is pale)
    expect(textsOf(calls).map((t) => t.fill)).toEqual([THEME.fg, THEME.fg]);
  });

  it('hatches an ongoing span and counts it', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [item({ index: 0, name: 'open', startSec: 10, endSec: 20, ongoing: true })]),
        ),
      ],
      options(),
    );
    // hatch strokes every 6 px from x0 - h (86) to before x1 (200): 20 lines
    expect(paths(calls, 'lineTo')).toHaveLength(Math.ceil((200 - 86) / 6));
    expect(strokes(calls)).toEqual([
      { op: 'strokeRect', x: 100.5, y: 4.5, w: 99, h: 13, stroke: colourForName('open') },
    ]);
    expect(result.stats.get(1)!.ongoing).toBe(1);
  });

  it('draws a link as a curve from the linked span’s end to the linking span’s start, with an arrow head', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({ index: 0, name: 'a', startSec: 0, endSec: 10 }),
            item({ index: 1, name: 'b', startSec: 20, endSec: 30, lane: 1, links: [0, 7] }), // 7: not drawn
            item({ index: 2, name: 'c', startSec: 40, endSec: 50, links: [1] }),
          ]),
        ),
      ],
      options({ hiddenNames: new Set(['c']) }),
    );
    // a: y 4..18 (mid 11); b: y 20..34 (mid 27)
    expect(paths(calls, 'bezierCurveTo')).toEqual([
      { op: 'path', name: 'bezierCurveTo', args: [150, 11, 150, 27, 200, 27] },
    ]);
    expect(paths(calls, 'lineTo').map((c) => c.args)).toEqual([
      [196, 24],
      [196, 30],
    ]);
    expect(result.stats.get(1)!.links).toBe(1);
  });

  it('marks events by shape, orphan ends by a cross, and clusters markers closer than a badge', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({ index: 0, name: 'abort', kind: 'event', startSec: 10 }),
            item({ index: 1, name: 'attempt 2', kind: 'event', startSec: 20 }),
            item({ index: 2, name: 'tick', kind: 'event', startSec: 30, error: true }),
            item({ index: 3, name: 'end', kind: 'orphan', startSec: 40 }),
            item({ index: 4, name: 'x', kind: 'event', startSec: 60, lane: 1 }),
            item({ index: 5, name: 'y', kind: 'event', startSec: 60.2, lane: 1 }),
            item({ index: 6, name: 'far', kind: 'event', startSec: 101 }), // x 1010: off the canvas
          ]),
        ),
      ],
      options(),
    );
    // lane 0 centre: 3 + 8 = 11; lane 1: 27. Every path in drawing order:
    const shapes = calls
      .filter((c) => c.op === 'path' && c.name !== 'fill' && c.name !== 'stroke')
      .map((c) => [(c as { name: string }).name, ...(c as { args: number[] }).args]);
    expect(shapes).toEqual([
      // "abort": a triangle, apex up, 5 px either side
      ['moveTo', 100, 6],
      ['lineTo', 105, 15],
      ['lineTo', 95, 15],
      // "attempt 2": an 8 px square
      ['rect', 196, 7, 8, 8],
      // "tick": a diamond
      ['moveTo', 300, 6],
      ['lineTo', 305, 11],
      ['lineTo', 300, 16],
      ['lineTo', 295, 11],
      // the orphan end: a cross of two 8 px strokes
      ['moveTo', 396, 7],
      ['lineTo', 404, 15],
      ['moveTo', 404, 7],
      ['lineTo', 396, 15],
      // x and y, 2 px apart: one numbered circle between them
      ['arc', 601, 27, 6.5, 0, Math.PI * 2],
    ]);
    expect(textsOf(calls).map((t) => [t.text, t.x, t.y, t.fill])).toEqual([
      ['2', 601, 27.5, THEME.bg],
    ]);
    expect(result.stats.get(1)).toMatchObject({ markers: 6, clusters: 1, orphans: 1, bars: 0 });
    const points = result.hits.filter((h) => h.point);
    expect(points.map((h) => [h.index, h.x0, h.x1, h.y0, h.y1])).toEqual([
      [0, 95, 105, 5, 17],
      [1, 195, 205, 5, 17],
      [2, 295, 305, 5, 17],
      [3, 395, 405, 5, 17],
      [4, 596, 606, 21, 33],
      [5, 596, 606, 21, 33],
    ]);
    // the hit test finds the marker under its centre
    expect(hitAt(result.hits, 300, 11)?.index).toBe(2);
  });

  it('labels the part of a bar left visible by the bars drawn over it, if the text fits', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            // under: 0..100 px, covered by "over" from 29 px on -> 0..29 leaves 23 px of room: no label
            item({ index: 0, name: 'under', startSec: 0, endSec: 10 }),
            item({ index: 1, name: 'over', startSec: 2.9, endSec: 20 }),
            // wide: 300..700 px with "mid" over 450..520: the wider free part is 520..700
            item({ index: 2, name: 'wide', startSec: 30, endSec: 70, hint: '12 tok' }),
            item({ index: 3, name: 'mid', startSec: 45, endSec: 52 }),
            // a long name cut to what fits: 40 px of room -> "long…" (30 px; "longna…" is 42)
            item({ index: 4, name: 'longname', startSec: 80, endSec: 84.6 }),
          ]),
          { expanded: false },
        ),
      ],
      options(),
    );
    expect(textsOf(calls).map((t) => [t.text, t.x])).toEqual([
      ['long…', 803],
      ['mid', 453], // "mid · 7.00 s" is 72 px, the room 64
      ['wide · 12 tok · 40.0 s', 523],
      ['over · 17.1 s', 32],
    ]);
    expect(result.stats.get(1)!.labels).toBe(4);
    // stacked bars, drawn bottom to top: p 0..1000 px, q 100..300, r 250..500, s 490..520.
    // Each label goes in the widest part its bar still shows: s whole (24 px of room, "s"),
    // r 250..490, q 100..250, p the wider of 0..100 and 520..1000
    const stacked = recordingContext();
    drawTimeline(
      stacked.ctx,
      [
        drawRow(
          rowView(2, [
            item({ index: 0, name: 'p', startSec: 0, endSec: 100 }),
            item({ index: 1, name: 'q', startSec: 10, endSec: 30 }),
            item({ index: 2, name: 'r', startSec: 25, endSec: 50 }),
            item({ index: 3, name: 's', startSec: 49, endSec: 52 }),
          ]),
          { expanded: false },
        ),
      ],
      options(),
    );
    expect(textsOf(stacked.calls).map((t) => [t.text, t.x])).toEqual([
      ['s', 493],
      ['r · 25.0 s', 253],
      ['q · 20.0 s', 103],
      ['p · 1.67 min', 523],
    ]);
    // two free parts of equal width: the first; bars in another lane do not cover this one
    const tie = recordingContext();
    drawTimeline(
      tie.ctx,
      [
        drawRow(
          rowView(3, [
            item({ index: 0, name: 'p', startSec: 0, endSec: 60 }),
            item({ index: 1, name: 'q', startSec: 20, endSec: 40 }),
            item({ index: 2, name: 'other lane', startSec: 0, endSec: 60, lane: 1 }),
          ]),
        ),
      ],
      options(),
    );
    expect(textsOf(tie.calls).map((t) => [t.text, t.x])).toEqual([
      ['q · 20.0 s', 203],
      ['p · 1.00 min', 3],
      ['other lane · 1.00 min', 3], // lane by lane, in the order lanes first appear
    ]);
    // no labels in 8 px lanes
    const small = recordingContext();
    drawTimeline(
      small.ctx,
      [drawRow(rowView(1, [item({ index: 0, name: 'a', startSec: 0, endSec: 50 })]))],
      options({ laneHeight: 8 }),
    );
    expect(textsOf(small.calls)).toEqual([]);
  });
});

describe('drawTimeline edge cases', () => {
  it('places bars by a window that does not start at zero', () => {
    const { ctx } = recordingContext();
    const result = drawTimeline(
      ctx,
      [drawRow(rowView(1, [item({ index: 0, name: 'a', startSec: 60, endSec: 70 })]))],
      options({ window: { startSec: 50, endSec: 150 } }),
    );
    expect(result.hits.map((h) => [h.x0, h.x1])).toEqual([[100, 200]]);
  });

  it('a selected row is shaded but its items not outlined; a selected item is outlined but its row not shaded', () => {
    const a = recordingContext();
    drawTimeline(
      a.ctx,
      [drawRow(rowView(1, [item({ index: 0, name: 'a', startSec: 10, endSec: 20 })]))],
      options({ selected: { rowId: 1, index: null } }),
    );
    expect(strokes(a.calls)).toEqual([]);
    expect(fills(a.calls).filter((c) => c.fill === `${THEME.accent}22`)).toHaveLength(1);
    const b = recordingContext();
    drawTimeline(
      b.ctx,
      [drawRow(rowView(1, [item({ index: 0, name: 'a', startSec: 10, endSec: 20 })]))],
      options({ selected: { rowId: 1, index: 0 } }),
    );
    expect(fills(b.calls).filter((c) => c.fill === `${THEME.accent}22`)).toEqual([]);
    expect(strokes(b.calls)).toHaveLength(1);
  });

  it('a PD span without phases is a plain bar; a zero-length one keeps half-pixel segments', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({
              index: 0,
              name: 'req',
              startSec: 10,
              endSec: 20,
              pd: { role: 'decode', phases: [] },
            }),
            item({
              index: 1,
              name: 'req0',
              startSec: 50,
              endSec: 50,
              lane: 1,
              pd: { role: 'prefill', phases: [{ phase: 'forward', durationSec: 0 }] },
            }),
          ]),
        ),
      ],
      options(),
    );
    const bars = fills(calls).filter((c) => c.h === 14);
    expect(bars.map(({ x, w, fill }) => [x, w, fill])).toEqual([
      [100, 100, colourForName('req')],
      [500, 1, `${pdPhaseColour('prefill', 'forward')}33`],
      [500, 0.5, pdPhaseColour('prefill', 'forward')],
    ]);
    expect(result.stats.get(1)!.pdSegments).toBe(1);
  });

  it('labels from a 12 px lane up', () => {
    const { ctx, calls } = recordingContext();
    drawTimeline(
      ctx,
      [drawRow(rowView(1, [item({ index: 0, name: 'a', startSec: 0, endSec: 50 })]))],
      options({ laneHeight: 12 }),
    );
    expect(textsOf(calls).map((t) => t.text)).toEqual(['a · 50.0 s']);
  });

  it('keeps markers up to 6 px off the canvas, sorted by x before clustering', () => {
    const { ctx } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({ index: 0, name: 'e', kind: 'event', startSec: -0.6 }), // x -6: kept
            item({ index: 1, name: 'e', kind: 'event', startSec: -0.61 }), // dropped
            item({ index: 2, name: 'e', kind: 'event', startSec: 100.6 }), // x 1006: kept
            item({ index: 3, name: 'e', kind: 'event', startSec: 100.61 }), // dropped
            // listed out of order: 500, 600, 502 px -> clusters {500, 502} (at 501) and {600}
            item({ index: 4, name: 'e', kind: 'event', startSec: 50 }),
            item({ index: 5, name: 'e', kind: 'event', startSec: 60 }),
            item({ index: 6, name: 'e', kind: 'event', startSec: 50.2 }),
          ]),
        ),
      ],
      options(),
    );
    expect(result.hits.map((h) => [h.index, h.x0 + 5])).toEqual([
      [0, -6],
      [4, 501],
      [6, 501],
      [5, 600],
      [2, 1006],
    ]);
    expect(result.stats.get(1)).toMatchObject({ markers: 5, clusters: 1 });
  });

  it('a collapsed row of several lanes puts its markers on a rail below the bars, never over them', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(
          rowView(1, [
            item({ index: 0, name: 'thread', startSec: 0, endSec: 100 }),
            // a burst of schedule events 1 px apart on lane 1, one lone event, an orphan end
            ...[50, 50.1, 50.2, 50.3].map((t, k) =>
              item({ index: 1 + k, name: 'schedule', kind: 'event', startSec: t, lane: 1 }),
            ),
            item({ index: 5, name: 'schedule', kind: 'event', startSec: 70, lane: 1 }),
            item({ index: 6, name: 'end', kind: 'orphan', startSec: 90 }),
          ]),
          { expanded: false },
        ),
      ],
      options(),
    );
    // no badges, glyphs or crosses: every mark is a rect on the rail; the bar's label is its own
    expect(paths(calls, 'arc')).toEqual([]);
    expect(paths(calls, 'moveTo')).toEqual([]);
    expect(textsOf(calls).map((t) => t.text)).toEqual([`thread · ${formatDuration(100)}`]);
    const bar = fills(calls).find((f) => f.fill === colourForName('thread'))!;
    const marks = fills(calls).filter((f) => f.y >= bar.y + bar.h);
    // lane 16 px, padding 6: bar 4..18, rail 19..22 (the row's bottom padding)
    expect([bar.y, bar.y + bar.h]).toEqual([4, 18]);
    expect(marks.map((m) => [m.x, m.y, m.w, m.h, m.fill])).toEqual([
      [499, 19, 5, 3, THEME.fg],
      [699, 19, 2, 3, colourForName('schedule')],
      [899, 19, 2, 3, THEME.danger],
    ]);
    expect(result.stats.get(1)).toMatchObject({
      markers: 6,
      clusters: 1,
      orphans: 1,
      railMarks: 3,
    });
    // each mark is clickable over its span
    expect(hitAt(result.hits, 502, 20)?.index).toBeGreaterThanOrEqual(1);
  });

  it('links only between bars of the same row', () => {
    const { ctx, calls } = recordingContext();
    const result = drawTimeline(
      ctx,
      [
        drawRow(rowView(1, [item({ index: 0, name: 'a', startSec: 0, endSec: 10 })])),
        // row 2's item 0 is hidden: its link target is not drawn, row 1's item 0 is no stand-in
        drawRow(
          rowView(2, [
            item({ index: 0, name: 'hidden', startSec: 0, endSec: 10 }),
            item({ index: 1, name: 'b', startSec: 20, endSec: 30, links: [0] }),
          ]),
          { y: 40 },
        ),
      ],
      options({ hiddenNames: new Set(['hidden']) }),
    );
    expect(paths(calls, 'bezierCurveTo')).toEqual([]);
    expect(result.stats.get(2)!.links).toBe(0);
  });
});

describe('idle gaps between attempts', () => {
  const summary = (gaps: NonNullable<FileSummary['rolloutWindow']>['idleGaps']) =>
    ({
      rolloutWindow: { ownStartSec: 0, ownEndSec: 1, label: '', idleGaps: gaps },
    }) as unknown as FileSummary;

  it('are keyed by row with a label giving their length and first rollout', () => {
    const gaps = idleGapsByRow(
      summary([{ rowId: 4, startSec: 10, endSec: 100, startRolloutId: 7 }]),
    );
    expect([...gaps]).toEqual([
      [
        4,
        {
          startSec: 10,
          endSec: 100,
          label: `idle ${formatDuration(90)} between attempts · started in rollout 7`,
        },
      ],
    ]);
    expect(idleGapsByRow({} as FileSummary).size).toBe(0);
  });

  it('draw a dashed line across the first lane, labelled where it fits', () => {
    const { ctx, calls } = recordingContext();
    const gap = { startSec: 10, endSec: 90, label: 'idle' };
    const result = drawTimeline(
      ctx,
      [drawRow(rowView(1, []), { y: 10 })],
      options({ idleGaps: new Map([[1, gap]]) }),
    );
    expect(result.stats.get(1)!.idleGaps).toBe(1);
    // mid: y + 3 + 8 = 21; label "idle" 24 px centred in 100..900
    expect(paths(calls, 'moveTo').map((c) => c.args)).toEqual([[100, 21]]);
    expect(paths(calls, 'lineTo').map((c) => c.args)).toEqual([[900, 21]]);
    expect(textsOf(calls).map((t) => [t.text, t.x, t.y])).toEqual([['idle', 488, 21]]);
    expect(fills(calls).at(-1)).toMatchObject({ x: 484, y: 14, w: 32, h: 14, fill: THEME.bg });
  });

  it('clip to the canvas, skip the label without room, and draw nothing off screen', () => {
    const xOf = (sec: number) => sec * 10;
    const t = { fgMuted: '#666', bg: '#fff' };
    const a = recordingContext();
    expect(
      drawIdleGap(a.ctx, { startSec: -50, endSec: 500, label: 'x' }, xOf, 0, 1000, t, 16),
    ).toBe(1);
    expect(paths(a.calls, 'moveTo')[0].args).toEqual([-2, 8]);
    expect(paths(a.calls, 'lineTo')[0].args).toEqual([1002, 8]);
    const b = recordingContext();
    // 31 px: room for the 18 px label and 6 px either side, centred
    drawIdleGap(b.ctx, { startSec: 0, endSec: 3.1, label: 'abc' }, xOf, 0, 1000, t, 16);
    expect(textsOf(b.calls).map((c) => c.x)).toEqual([6.5]);
    const c = recordingContext();
    drawIdleGap(c.ctx, { startSec: 0, endSec: 3, label: 'abc' }, xOf, 0, 1000, t, 16); // 30 = 18 + 12
    expect(textsOf(c.calls)).toEqual([]);
    const d = recordingContext();
    expect(
      drawIdleGap(d.ctx, { startSec: 200, endSec: 300, label: 'x' }, xOf, 0, 1000, t, 16),
    ).toBe(0);
    expect(d.calls).toEqual([]);
  });
});
