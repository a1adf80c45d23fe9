import {
  drawTimeline,
  type DrawContext,
  type DrawOptions,
  type DrawRow,
  type ThemeColours,
} from './draw-timeline';
import { legendEntries, type SpanNameCount } from './legend-entries';
import { rowLabelTexts } from './row-label-text';
import { AXIS_HEIGHT, LANE_HEIGHT, ROW_PADDING } from './row-layout';
import { STATUS_COLOURS } from './span-colours';
import { placeTickLabel, type Tick } from './time-format';
import type { Window } from './time-window';

/**
 * A picture of the timeline as shown: legend, time axis, label column and the rows drawn by
 * drawTimeline itself at the picture's pixel ratio (not an upscale of the screen's canvas).
 * Pure over a 2D context, so the app (a DOM canvas) and the CLI (a skia canvas in Node) draw
 * the same picture with the same code.
 */

/** What a picture needs of a 2D context beyond what drawTimeline uses. */
export interface PictureContext extends DrawContext {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  translate(x: number, y: number): void;
}

export interface PictureLegendEntry {
  label: string;
  colour: string;
}

export interface TimelinePicture {
  /** drawTimeline's options: `width` and `height` are the plot's (the canvas's) CSS size */
  draw: DrawOptions;
  /** the rows as drawn on the canvas, `y` from the canvas top */
  rows: DrawRow[];
  labelWidth: number;
  /** the axis' ticks, x from the plot's left edge (axisTicks) */
  ticks: Tick[];
  legend: PictureLegendEntry[];
  /** the label column's entries; by default each row's own (rowLabelTexts) */
  labels?: PictureLabel[];
  /** room above the axis, over the plot's width, for what the view draws there (a run's bands) */
  decorHeight?: number;
}

/** A text of a label: plain, muted, a group's title, or on a pill of its colour. */
export interface PictureText {
  text: string;
  tone: 'fg' | 'muted' | 'title' | 'pill';
  /** a pill's colour (white text on it) */
  fill?: string;
}

/** One entry of the label column: texts left to right on its first lane. */
export interface PictureLabel {
  /** top on the plot (like a row's `y`) and height, CSS pixels */
  y: number;
  height: number;
  shaded: boolean;
  dimmed: boolean;
  /** where its first text starts */
  x: number;
  texts: PictureText[];
  /** the names of an expanded row's lanes below its first, small and muted, from `x` */
  lanes?: { x: number; names: string[] };
}

export interface PictureLayout {
  /** the whole picture, CSS pixels */
  width: number;
  height: number;
  /** where the rows are drawn, CSS pixels: the canvas's place in the picture */
  plot: { x: number; y: number; width: number; height: number };
  /** the room above the axis (decorHeight), or null */
  decor: { x: number; y: number; width: number; height: number } | null;
  legendLines: PictureLegendEntry[][];
}

const LEGEND_LINE = 20;
const LEGEND_PAD = 6;
const SWATCH = 10;
const LEGEND_FONT = '12px system-ui, sans-serif';
const LABEL_FONT = '12px system-ui, sans-serif';
const AXIS_FONT = '10px system-ui, sans-serif';
const PILL_FONT = '10px system-ui, sans-serif';
const TITLE_FONT = 'bold 11px system-ui, sans-serif';

/** theme.css's light colours: what a picture made without the app (the CLI) is drawn in. */
export const LIGHT_THEME: ThemeColours = {
  bg: '#f7f7f9',
  rowAlt: '#f1f3f6',
  grid: '#e3e6ec',
  fg: '#1d2129',
  fgMuted: '#5f6673',
  danger: '#d1242f',
  accent: '#2f6feb',
};

/**
 * drawTimeline's options for a picture made without the app (the CLI's PNGs): light colours,
 * nothing hidden, highlighted or selected, lanes of the app's height; the plot's height is
 * set once the layout is known.
 */
export function plainPictureDraw(width: number, window: Window): DrawOptions {
  return {
    width,
    height: 0,
    window,
    theme: LIGHT_THEME,
    hiddenNames: new Set(),
    highlightNames: null,
    selected: null,
    laneHeight: LANE_HEIGHT,
  };
}

/**
 * The legend a picture shows: the names the app's legend lists with their counts (hidden ones
 * left out: they are not drawn) and the PD phases by role.
 */
export function pictureLegend(
  file: { spanNames: SpanNameCount[] },
  hiddenNames: Set<string>,
): PictureLegendEntry[] {
  const { names, phases } = legendEntries(file);
  return [
    ...names
      .filter((n) => !hiddenNames.has(n.name))
      .map((n) => ({ label: `${n.name} ${n.count}`, colour: n.colour })),
    ...phases.map((p) => ({
      label: `${p.role === 'prefill' ? '[P]' : '[D]'} ${p.phase.replace(/_/g, ' ')}`,
      colour: p.colour,
    })),
  ];
}

/** Where each part goes: the legend wraps to the picture's width as the app's does. */
export function pictureLayout(ctx: DrawContext, picture: TimelinePicture): PictureLayout {
  const width = picture.labelWidth + picture.draw.width;
  ctx.font = LEGEND_FONT;
  const legendLines: PictureLegendEntry[][] = [];
  let line: PictureLegendEntry[] = [];
  let x = LEGEND_PAD;
  for (const entry of picture.legend) {
    const w = SWATCH + 4 + ctx.measureText(entry.label).width + 10;
    if (line.length > 0 && x + w > width - LEGEND_PAD) {
      legendLines.push(line);
      line = [];
      x = LEGEND_PAD;
    }
    line.push(entry);
    x += w;
  }
  if (line.length > 0) legendLines.push(line);
  const legendHeight = legendLines.length === 0 ? 0 : legendLines.length * LEGEND_LINE + 8;
  const decorHeight = picture.decorHeight ?? 0;
  const top = legendHeight + decorHeight + AXIS_HEIGHT;
  const plotX = picture.labelWidth;
  return {
    width,
    height: top + picture.draw.height,
    plot: { x: plotX, y: top, width: picture.draw.width, height: picture.draw.height },
    decor:
      decorHeight > 0
        ? { x: plotX, y: legendHeight, width: picture.draw.width, height: decorHeight }
        : null,
    legendLines,
  };
}

/**
 * Draws the picture at `pixelRatio` device pixels per CSS pixel onto a context of
 * layout.width * pixelRatio by layout.height * pixelRatio (pictureLayout says the size).
 */
export function composeTimelinePicture(
  ctx: PictureContext,
  picture: TimelinePicture,
  pixelRatio: number,
): PictureLayout {
  const layout = pictureLayout(ctx, picture);
  const { theme } = picture.draw;
  ctx.setTransform(pixelRatio, 0, 0, pixelRatio, 0, 0);
  ctx.fillStyle = theme.bg;
  ctx.fillRect(0, 0, layout.width, layout.height);
  const { plot } = layout;
  // the rows exactly as the canvas draws them, clipped to the canvas's box
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x, plot.y, plot.width, plot.height);
  ctx.clip();
  ctx.translate(plot.x, plot.y);
  drawTimeline(ctx, picture.rows, picture.draw);
  ctx.restore();
  drawLabels(ctx, picture, plot);
  drawAxis(ctx, picture.ticks, plot, theme);
  drawLegend(ctx, layout.legendLines, theme);
  return layout;
}

/** A file's row labels as RowLabel shows them: index, group, source, status, reward. */
export function rowPictureLabels(rows: DrawRow[], laneHeight: number): PictureLabel[] {
  return rows.map(({ row, y, expanded, shaded, dimmed }) => {
    const texts = rowLabelTexts(row);
    const lanes = expanded ? Math.max(1, row.laneCount) : 1;
    const parts: PictureText[] = [
      { text: texts.index, tone: 'fg' },
      { text: texts.group, tone: 'muted' },
      { text: texts.source, tone: 'muted' },
    ];
    if (texts.status)
      parts.push({
        text: texts.status,
        tone: 'pill',
        fill: STATUS_COLOURS[texts.status] ?? '#8c959f',
      });
    if (texts.reward) parts.push({ text: texts.reward, tone: 'fg' });
    return {
      y,
      height: lanes * laneHeight + ROW_PADDING,
      shaded,
      dimmed,
      x: 16,
      texts: parts.filter((p) => p.text),
    };
  });
}

function drawLabels(
  ctx: PictureContext,
  picture: TimelinePicture,
  plot: PictureLayout['plot'],
): void {
  const { theme } = picture.draw;
  const laneHeight = picture.draw.laneHeight ?? 16;
  const labels = picture.labels ?? rowPictureLabels(picture.rows, laneHeight);
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, plot.y, picture.labelWidth, plot.height);
  ctx.clip();
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'start';
  for (const label of labels) {
    const top = plot.y + label.y;
    if (label.shaded) {
      ctx.fillStyle = theme.rowAlt;
      ctx.fillRect(0, top, picture.labelWidth, label.height);
    }
    ctx.globalAlpha = label.dimmed ? 0.4 : 1;
    const mid = top + (laneHeight + ROW_PADDING / 2) / 2 + 1;
    let x = label.x;
    for (const part of label.texts) {
      if (part.tone === 'pill') {
        ctx.font = PILL_FONT;
        const w = ctx.measureText(part.text).width + 10;
        ctx.fillStyle = part.fill ?? theme.grid;
        ctx.fillRect(x, mid - 7, w, 14);
        ctx.fillStyle = '#ffffff';
        ctx.fillText(part.text, x + 5, mid);
        x += w + 6;
        continue;
      }
      ctx.font = part.tone === 'title' ? TITLE_FONT : LABEL_FONT;
      ctx.fillStyle = part.tone === 'fg' ? theme.fg : theme.fgMuted;
      ctx.fillText(part.text, x, mid);
      x += ctx.measureText(part.text).width + 6;
    }
    ctx.font = PILL_FONT;
    ctx.fillStyle = theme.fgMuted;
    label.lanes?.names.forEach((name, lane) =>
      ctx.fillText(name, label.lanes!.x, top + ROW_PADDING / 2 + (lane + 1.5) * laneHeight),
    );
    ctx.globalAlpha = 1;
  }
  ctx.restore();
  ctx.fillStyle = theme.grid;
  ctx.fillRect(plot.x - 1, plot.y, 1, plot.height);
}

function drawAxis(
  ctx: PictureContext,
  ticks: Tick[],
  plot: PictureLayout['plot'],
  theme: ThemeColours,
): void {
  const bottom = plot.y;
  ctx.fillStyle = theme.fgMuted;
  ctx.fillRect(plot.x, bottom - 1, plot.width, 1);
  ctx.font = AXIS_FONT;
  ctx.textBaseline = 'alphabetic';
  for (const tick of ticks) {
    ctx.fillStyle = theme.fgMuted;
    ctx.fillRect(plot.x + tick.x - 0.5, bottom - 6, 1, 6);
    const place = placeTickLabel(tick, plot.width);
    ctx.textAlign = { start: 'left', middle: 'center', end: 'right' }[place.anchor];
    ctx.fillText(tick.label, plot.x + place.x, bottom - 10);
  }
  ctx.textAlign = 'start';
}

function drawLegend(ctx: PictureContext, lines: PictureLegendEntry[][], theme: ThemeColours): void {
  ctx.font = LEGEND_FONT;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'start';
  lines.forEach((line, k) => {
    const mid = 4 + k * LEGEND_LINE + LEGEND_LINE / 2;
    let x = LEGEND_PAD;
    for (const entry of line) {
      ctx.fillStyle = entry.colour;
      ctx.fillRect(x, mid - SWATCH / 2, SWATCH, SWATCH);
      ctx.fillStyle = theme.fg;
      ctx.fillText(entry.label, x + SWATCH + 4, mid);
      x += SWATCH + 4 + ctx.measureText(entry.label).width + 10;
    }
  });
}
