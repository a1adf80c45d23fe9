import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCanvas } from '@napi-rs/canvas';
import { packRows } from '../../../src-main/core/rows/packed-items';
import { buildStore } from '../../../src-main/core/store/build-store';
import { getRowViews } from '../../../src-main/core/store/row-views';
import type { Row } from '../../../src-main/core/model/row';
import { drawTimeline, type DrawRow } from '../../../src-renderer/timeline/draw-timeline';
import { AXIS_HEIGHT, LANE_HEIGHT, ROW_PADDING } from '../../../src-renderer/timeline/row-layout';
import { axisTicks, timelineClock } from '../../../src-renderer/timeline/timeline-clock';
import {
  LIGHT_THEME,
  composeTimelinePicture,
  pictureLayout,
  pictureLegend,
  plainPictureDraw,
  type PictureContext,
  type TimelinePicture,
} from '../../../src-renderer/timeline/timeline-picture';
import { SLIME, readJson } from '../../support/fixtures';
import { recordingContext } from '../timeline/recording-context';

// rollout_small.pt's rows as slime's own viewer code laid them out (tests/fixtures/slime/README.md)
const expected = readJson<{ rows: Row[]; global_start: number; global_end: number }>(
  resolve(SLIME, 'rollout_small.pt.expected.json'),
);
const store = buildStore({ rows: packRows(expected.rows) });
const views = getRowViews(
  store,
  expected.rows.map((r) => r.row_id),
);
const spanNames = [...new Set(expected.rows.flatMap((r) => r.items.map((i) => i.name)))].map(
  (name) => ({ name, count: 1 }),
);

function picture(over: Partial<TimelinePicture['draw']> = {}, width = 900): TimelinePicture {
  const window = { startSec: 0, endSec: 10 };
  const rows: DrawRow[] = views.map((row, i) => ({
    row,
    y: i * (LANE_HEIGHT + ROW_PADDING),
    expanded: false,
    shaded: i % 2 === 1,
    dimmed: false,
  }));
  return {
    draw: { ...plainPictureDraw(width, window), height: 400, ...over },
    rows,
    labelWidth: 250,
    ticks: axisTicks(window, width, timelineClock(0, null)),
    legend: pictureLegend({ spanNames }, over.hiddenNames ?? new Set()),
  };
}

/** The recording fake, with the two transform calls a picture adds (positions are not moved). */
function recording() {
  const { ctx, calls } = recordingContext();
  return {
    ctx: Object.assign(ctx, { setTransform: () => {}, translate: () => {} }) as PictureContext,
    calls,
  };
}

describe('the timeline picture', () => {
  it('lays the legend, the axis and the rows out below one another, the labels left', () => {
    const { ctx } = recording();
    const p = picture();
    const layout = pictureLayout(ctx, p);
    expect(layout.width).toBe(250 + 900);
    expect(layout.plot).toMatchObject({ x: 250, width: 900, height: 400 });
    expect(layout.plot.y).toBe(layout.legendLines.length * 20 + 8 + AXIS_HEIGHT);
    expect(layout.height).toBe(layout.plot.y + 400);
    expect(layout.legendLines.flat()).toEqual(p.legend);
    // narrower, the legend wraps onto more lines
    const narrow = pictureLayout(ctx, picture({}, 300));
    expect(narrow.legendLines.length).toBeGreaterThan(layout.legendLines.length);
  });

  it('writes every tick label, legend entry and row label (index, status) as text', () => {
    const { ctx, calls } = recording();
    const p = picture();
    composeTimelinePicture(ctx, p, 2);
    const texts = calls.flatMap((c) => (c.op === 'fillText' ? [c.text] : []));
    expect(p.ticks.length).toBeGreaterThan(3);
    for (const tick of p.ticks) expect(texts).toContain(tick.label);
    for (const entry of p.legend) expect(texts).toContain(entry.label);
    for (const row of expected.rows) {
      expect(texts).toContain(`#${row.sample_index}`);
      expect(texts).toContain(row.status);
    }
  });

  it('leaves hidden names out of its legend and lists the PD phases by role', () => {
    const shown = pictureLegend({ spanNames }, new Set());
    const hidden = pictureLegend({ spanNames }, new Set(['sglang_generate']));
    expect(shown.map((e) => e.label)).toContain('sglang_generate 1');
    expect(hidden.map((e) => e.label)).not.toContain('sglang_generate 1');
    expect(hidden.length).toBe(shown.length - 1);
    expect(shown.map((e) => e.label)).toEqual(
      expect.arrayContaining(['[P] forward', '[D] forward']),
    );
  });

  it('draws the rows again at the pixel ratio: its plot is drawTimeline on a 2x canvas', () => {
    const p = picture();
    const probe = createCanvas(1, 1).getContext('2d') as unknown as PictureContext;
    const layout = pictureLayout(probe, p);
    const whole = createCanvas(layout.width * 2, layout.height * 2);
    composeTimelinePicture(whole.getContext('2d') as unknown as PictureContext, p, 2);
    const alone = createCanvas(900 * 2, 400 * 2);
    const ctx = alone.getContext('2d');
    ctx.setTransform(2, 0, 0, 2, 0, 0);
    drawTimeline(ctx as unknown as PictureContext, p.rows, p.draw);
    const a = whole
      .getContext('2d')
      .getImageData(layout.plot.x * 2, layout.plot.y * 2, 900 * 2, 400 * 2).data;
    const b = ctx.getImageData(0, 0, 900 * 2, 400 * 2).data;
    let differ = 0;
    let drawn = 0;
    for (let i = 0; i < a.length; i += 4) {
      if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 6)
        differ++;
      if (a[i] !== 0xf7 || a[i + 1] !== 0xf7 || a[i + 2] !== 0xf9) drawn++;
    }
    // the same pixels, and plenty of them are bars (not two blank images)
    expect(differ).toBe(0);
    expect(drawn / (a.length / 4)).toBeGreaterThan(0.05);
  });

  it('writes the labels it is given in place of the rows’ own: titles, names, pills, lanes', () => {
    const { ctx, calls } = recording();
    const p: TimelinePicture = {
      ...picture(),
      labels: [
        {
          y: 0,
          height: 20,
          shaded: false,
          dimmed: false,
          x: 8,
          texts: [{ text: 'SAMPLES', tone: 'title' }],
        },
        {
          y: 20,
          height: 3 * LANE_HEIGHT + ROW_PADDING,
          shaded: true,
          dimmed: false,
          x: 24,
          texts: [
            { text: 'trainer 0', tone: 'fg' },
            { text: 'stale', tone: 'pill', fill: '#e8590c' },
          ],
          lanes: { x: 22, names: ['decode', 'prefill'] },
        },
      ],
    };
    composeTimelinePicture(ctx, p, 2);
    const texts = calls.flatMap((c) => (c.op === 'fillText' ? [c.text] : []));
    expect(texts).toEqual(
      expect.arrayContaining(['SAMPLES', 'trainer 0', 'stale', 'decode', 'prefill']),
    );
    // the rows are drawn, but their own labels are not written
    expect(texts).not.toContain(`#${expected.rows[0].sample_index}`);
    // the pill on its colour, the shaded entry over its whole height, the lane names below
    const rects = calls.flatMap((c) => (c.op === 'fillRect' ? [c] : []));
    expect(rects.some((r) => r.fill === '#e8590c')).toBe(true);
    expect(
      rects.some((r) => r.fill === LIGHT_THEME.rowAlt && r.h === 3 * LANE_HEIGHT + ROW_PADDING),
    ).toBe(true);
    const decode = calls.find((c) => c.op === 'fillText' && c.text === 'decode');
    const name = calls.find((c) => c.op === 'fillText' && c.text === 'trainer 0');
    expect(decode).toMatchObject({ x: 22 });
    expect(name).toMatchObject({ x: 24 });
    expect((decode as { y: number }).y).toBeGreaterThan((name as { y: number }).y);
  });

  it('keeps room above the axis for what the view draws there, the rows moved down by it', () => {
    const { ctx } = recording();
    const without = pictureLayout(ctx, picture());
    const withDecor = pictureLayout(ctx, { ...picture(), decorHeight: 38 });
    expect(without.decor).toBeNull();
    expect(withDecor.plot.y).toBe(without.plot.y + 38);
    expect(withDecor.height).toBe(without.height + 38);
    expect(withDecor.decor).toEqual({
      x: withDecor.plot.x,
      y: withDecor.plot.y - AXIS_HEIGHT - 38,
      width: withDecor.plot.width,
      height: 38,
    });
  });

  it("is drawn in theme.css's light colours when the app's are not at hand", () => {
    const css = readFileSync(resolve(__dirname, '../../../src-renderer/theme/theme.css'), 'utf8');
    const root = css.slice(css.indexOf(':root {'), css.indexOf('}', css.indexOf(':root {')));
    const value = (name: string) => root.match(new RegExp(`--${name}:\\s*([^;]+);`))?.[1];
    expect(LIGHT_THEME).toEqual({
      bg: value('bg'),
      rowAlt: value('row-alt'),
      grid: value('grid'),
      fg: value('fg'),
      fgMuted: value('fg-muted'),
      danger: value('danger'),
      accent: value('accent'),
    });
  });
});
