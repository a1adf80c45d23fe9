import type { ItemView, RowView } from '../../src-main/core/api/trace-api';
import { pdPhaseColour } from '../../src-main/core/model/pd-phases';
import { colourOfItem, legendKeyOf } from './span-colours';
import { phaseSegments } from './pd-segments';
import { clusterMarkers } from './cluster-markers';
import type { Window } from './time-window';
import { formatDuration } from './time-format';
import { LANE_HEIGHT, ROW_PADDING } from './row-layout';
import { drawIdleGap, type IdleGap } from './idle-gaps';
import type { DrawContext } from './draw-context';
import { itemAt } from './row-items';

export type { DrawContext };

export interface ThemeColours {
  bg: string;
  rowAlt: string;
  grid: string;
  fg: string;
  fgMuted: string;
  danger: string;
  accent: string;
}

export interface DrawRow {
  row: RowView;
  /** top of the row in canvas pixels */
  y: number;
  expanded: boolean;
  shaded: boolean;
  /** highlight mode: the row does not match the filter */
  dimmed: boolean;
}

export interface DrawOptions {
  width: number;
  height: number;
  window: Window;
  theme: ThemeColours;
  hiddenNames: Set<string>;
  highlightNames: string[] | null;
  selected: { rowId: number; index: number | null } | null;
  /** (ours) per row: the idle time between a resumed sample's attempts, drawn as a gap, not a bar */
  idleGaps?: Map<number, IdleGap>;
  /** lane height in CSS pixels (the density control); LANE_HEIGHT by default */
  laneHeight?: number;
  /** the item under the pointer: its links are drawn, a GPU kernel's launch arrow too */
  hovered?: { rowId: number; index: number } | null;
}

export interface HitBox {
  rowId: number;
  index: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  point: boolean;
  /** a PD span: its phases are drawn over what is under it, so it wins the hit test there */
  pd?: boolean;
}

export interface RowDrawStats {
  bars: number;
  markers: number;
  clusters: number;
  orphans: number;
  ongoing: number;
  pdSegments: number;
  links: number;
  /** bar labels drawn (at most one per bar, none over another) */
  labels: number;
  /** marks on a collapsed row's marker rail (below its bars), clusters counting once */
  railMarks: number;
  idleGaps: number;
  /** bars drawn at full strength because a highlight names them (0 when nothing is highlighted) */
  highlighted: number;
}

/**
 * Draws visible rows onto the canvas: a pure function of (rows, window, theme). Per row: bars
 * (PD spans as phase segments), then their labels (at most one per bar, never over another
 * label), links, then markers on top; returns hit boxes and what each row drew.
 */
export function drawTimeline(
  ctx: DrawContext,
  rows: DrawRow[],
  options: DrawOptions,
): { hits: HitBox[]; stats: Map<number, RowDrawStats> } {
  const { width, height, window: w, theme } = options;
  const scale = width / (w.endSec - w.startSec);
  const xOf = (sec: number) => (sec - w.startSec) * scale;
  ctx.clearRect(0, 0, width, height);
  // the background is painted, so the whole canvas (rows or not) follows the theme
  ctx.fillStyle = theme.bg;
  ctx.fillRect(0, 0, width, height);
  const hits: HitBox[] = [];
  const stats = new Map<number, RowDrawStats>();
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'middle';

  const laneHeight = options.laneHeight ?? LANE_HEIGHT;
  for (const { row, y, expanded, shaded, dimmed } of rows) {
    const laneCount = expanded ? Math.max(1, row.laneCount) : 1;
    const rowHeight = laneCount * laneHeight + ROW_PADDING;
    if (shaded) {
      ctx.fillStyle = theme.rowAlt;
      ctx.fillRect(0, y, width, rowHeight);
    }
    if (options.selected?.rowId === row.rowId && options.selected.index === null) {
      ctx.fillStyle = `${theme.accent}22`;
      ctx.fillRect(0, y, width, rowHeight);
    }
    ctx.globalAlpha = dimmed ? 0.25 : 1;
    const s: RowDrawStats = {
      bars: 0,
      markers: 0,
      clusters: 0,
      orphans: 0,
      ongoing: 0,
      pdSegments: 0,
      links: 0,
      labels: 0,
      railMarks: 0,
      idleGaps: 0,
      highlighted: 0,
    };
    const gap = options.idleGaps?.get(row.rowId);
    if (gap)
      s.idleGaps += drawIdleGap(ctx, gap, xOf, y + ROW_PADDING / 2, width, theme, laneHeight);
    const laneY = (item: ItemView) => y + ROW_PADDING / 2 + (expanded ? item.lane : 0) * laneHeight;
    const points: { item: ItemView; x: number }[] = [];
    const labels: { item: ItemView; x0: number; x1: number; top: number }[] = [];
    for (const item of row.items) {
      const key = legendKeyOf(item);
      if (options.hiddenNames.has(key)) continue;
      if (item.kind !== 'span') {
        points.push({ item, x: xOf(item.startSec) });
        continue;
      }
      // collapsed rows paint PD phases over their request; PD spans need no own lane there
      const x0 = xOf(item.startSec);
      const x1 = Math.max(x0 + 1, xOf(item.endSec));
      if (x1 < -2 || x0 > width + 2) continue;
      const top = laneY(item) + 1;
      const h = laneHeight - 2;
      const faded = options.highlightNames !== null && !options.highlightNames.includes(key);
      ctx.globalAlpha = (dimmed ? 0.25 : 1) * (faded ? 0.2 : 1);
      if (options.highlightNames !== null && !faded) s.highlighted++;
      if (item.pd && item.pd.phases.length > 0) {
        s.pdSegments += drawPhases(ctx, item, x0, x1, top, h, scale);
      } else {
        ctx.fillStyle = colourOfItem(item);
        // zoomed in, a long span reaches far past the canvas: the hatching is drawn only where
        // it can be seen (else millions of strokes)
        if (item.ongoing) {
          drawOngoing(ctx, Math.max(x0, -h), Math.min(x1, width + h), top, h, colourOfItem(item));
        } else ctx.fillRect(x0, top, x1 - x0, h);
      }
      if (item.ongoing) s.ongoing++;
      if (item.error) {
        ctx.strokeStyle = theme.danger;
        ctx.lineWidth = 2;
        ctx.strokeRect(x0 + 1, top + 1, x1 - x0 - 2, h - 2);
      }
      if (options.selected?.rowId === row.rowId && options.selected.index === item.index) {
        ctx.strokeStyle = theme.fg;
        ctx.lineWidth = 2;
        ctx.strokeRect(x0 - 1, top - 1, x1 - x0 + 2, h + 2);
      }
      labels.push({ item, x0, x1, top });
      s.bars++;
      hits.push({
        rowId: row.rowId,
        index: item.index,
        x0,
        x1,
        y0: top,
        y1: top + h,
        point: false,
        ...(item.pd ? { pd: true } : {}),
      });
    }
    ctx.globalAlpha = dimmed ? 0.25 : 1;
    if (laneHeight >= 12) s.labels = drawLabels(ctx, labels, laneHeight - 2, width, theme);
    const focus = new Set<number>();
    if (options.selected?.rowId === row.rowId && options.selected.index !== null)
      focus.add(options.selected.index);
    if (options.hovered?.rowId === row.rowId) focus.add(options.hovered.index);
    s.links = drawLinks(ctx, row, hits, theme, focus);
    ctx.globalAlpha = dimmed ? 0.25 : 1;
    // instant events and orphan ends, per lane, clustered where their marks would overlap; a
    // collapsed row of several lanes puts them on a rail below its bars, which they never cover
    const onRail = !expanded && row.laneCount > 1;
    const railY = y + ROW_PADDING / 2 + laneHeight;
    const byLane = new Map<number, { x: number; index: number; item: ItemView }[]>();
    for (const { item, x } of points) {
      if (x < -6 || x > width + 6) continue;
      const lane = expanded ? item.lane : 0;
      // pushed into the lane's list (a new list per point was quadratic in a lane's points)
      const list = byLane.get(lane);
      if (list === undefined) byLane.set(lane, [{ x, index: item.index, item }]);
      else list.push({ x, index: item.index, item });
    }
    for (const [, lanePoints] of byLane) {
      lanePoints.sort((a, b) => a.x - b.x);
      for (const cluster of clusterMarkers(lanePoints, onRail ? RAIL_GAP_PX : undefined)) {
        const first = itemAt(row, cluster.members[0])!;
        const cy = onRail ? railY + RAIL_HEIGHT / 2 : laneY(first) + laneHeight / 2;
        if (cluster.count > 1) s.clusters++;
        else if (first.kind === 'orphan') s.orphans++;
        if (onRail) {
          drawRailMark(ctx, cluster, railY, railColour(cluster.count, first, theme));
          s.railMarks++;
        } else if (cluster.count > 1) drawCluster(ctx, cluster.x, cy, cluster.count, theme);
        else if (first.kind === 'orphan') drawCross(ctx, cluster.x, cy, theme.danger);
        else drawMarker(ctx, cluster.x, cy, first, theme);
        s.markers += cluster.count;
        for (const index of cluster.members) {
          hits.push({
            rowId: row.rowId,
            index,
            x0: (onRail ? cluster.x0 : cluster.x) - 5,
            x1: (onRail ? cluster.x1 : cluster.x) + 5,
            y0: cy - 6,
            y1: cy + 6,
            point: true,
          });
        }
      }
    }
    ctx.globalAlpha = 1;
    stats.set(row.rowId, s);
  }
  return { hits, stats };
}

function drawPhases(
  ctx: DrawContext,
  item: ItemView,
  x0: number,
  x1: number,
  top: number,
  h: number,
  scale: number,
): number {
  ctx.fillStyle = `${pdPhaseColour(item.pd!.role, 'forward')}33`;
  ctx.fillRect(x0, top, x1 - x0, h);
  const segments = phaseSegments(item);
  for (const segment of segments) {
    ctx.fillStyle = pdPhaseColour(item.pd!.role, segment.phase);
    ctx.fillRect(
      x0 + (segment.startSec - item.startSec) * scale,
      top,
      Math.max((segment.endSec - segment.startSec) * scale, 0.5),
      h,
    );
  }
  return segments.length;
}

function drawOngoing(
  ctx: DrawContext,
  x0: number,
  x1: number,
  top: number,
  h: number,
  colour: string,
): void {
  // hatched body fading towards the clipped end: it did not end, we only know it was running
  const gradient = ctx.createLinearGradient(x0, 0, x1, 0);
  gradient.addColorStop(0, colour);
  gradient.addColorStop(1, `${colour}33`);
  ctx.fillStyle = gradient;
  ctx.fillRect(x0, top, x1 - x0, h);
  ctx.save();
  ctx.beginPath();
  ctx.rect(x0, top, x1 - x0, h);
  ctx.clip();
  ctx.strokeStyle = 'rgba(255,255,255,0.45)';
  ctx.lineWidth = 1;
  for (let x = x0 - h; x < x1; x += 6) {
    ctx.beginPath();
    ctx.moveTo(x, top + h);
    ctx.lineTo(x + h, top);
    ctx.stroke();
  }
  ctx.restore();
  ctx.setLineDash([3, 2]);
  ctx.strokeStyle = colour;
  ctx.strokeRect(x0 + 0.5, top + 0.5, x1 - x0 - 1, h - 1);
  ctx.setLineDash([]);
}

/**
 * Bar labels of one row. Bars of a lane may overlap (always, in a collapsed row): a later bar
 * covers an earlier one, so each bar is labelled only in the widest part of it still visible,
 * and only if its text fits there. One label per visible bar, never text over text. Returns how
 * many were drawn.
 */
function drawLabels(
  ctx: DrawContext,
  labels: { item: ItemView; x0: number; x1: number; top: number }[],
  h: number,
  width: number,
  theme: ThemeColours,
): number {
  let drawn = 0;
  const lanes = new Map<number, typeof labels>();
  // pushed into the lane's list: a new list per label was quadratic in a lane's bars (a GPU
  // rank's stream of 100k kernels held the page for minutes)
  for (const label of labels) {
    const lane = lanes.get(label.top);
    if (lane === undefined) lanes.set(label.top, [label]);
    else lane.push(label);
  }
  for (const lane of lanes.values()) {
    // from the last drawn (on top) to the first: what is already covered hides what is below
    const covered: [number, number][] = [];
    for (let k = lane.length - 1; k >= 0; k--) {
      const { item, x0, x1, top } = lane[k];
      const from = Math.max(x0, 0);
      const to = Math.min(x1, width);
      const part = widestUncovered(covered, from, to);
      cover(covered, from, to);
      if (!part) continue;
      const left = part[0] + 3;
      const room = part[1] - left - 3;
      if (room < 24) continue;
      const text = fitLabel(ctx, item, room);
      if (text === null) continue;
      ctx.fillStyle = item.pd ? theme.fg : '#ffffff';
      ctx.fillText(text, left, top + h / 2 + 0.5);
      drawn++;
    }
  }
  return drawn;
}

/** The widest part of [from, to] outside the sorted, disjoint `covered` intervals. */
function widestUncovered(
  covered: [number, number][],
  from: number,
  to: number,
): [number, number] | null {
  let best: [number, number] | null = null;
  let at = from;
  for (const [a, b] of covered) {
    if (b <= at) continue;
    if (a >= to) break;
    if (a > at && (!best || a - at > best[1] - best[0])) best = [at, a];
    at = Math.max(at, b);
    if (at >= to) break;
  }
  if (at < to && (!best || to - at > best[1] - best[0])) best = [at, to];
  return best;
}

/** Adds [from, to] to the sorted, disjoint intervals, merging what it touches. */
function cover(covered: [number, number][], from: number, to: number): void {
  if (to <= from) return;
  let a = from;
  let b = to;
  const kept: [number, number][] = [];
  for (const [x, y] of covered) {
    if (y < a || x > b) kept.push([x, y]);
    else {
      a = Math.min(a, x);
      b = Math.max(b, y);
    }
  }
  kept.push([a, b]);
  kept.sort((p, q) => p[0] - q[0]);
  covered.splice(0, covered.length, ...kept);
}

/** The longest of "name · hint · duration", "name · hint", "name", "nam…" that fits `room`. */
function fitLabel(ctx: DrawContext, item: ItemView, room: number): string | null {
  const parts = [item.name, item.hint, formatDuration(item.endSec - item.startSec)].filter(
    Boolean,
  ) as string[];
  let text = parts.join(' · ');
  while (text.length > 3 && ctx.measureText(text).width > room) {
    if (parts.length > 1) parts.pop();
    else parts[0] = parts[0].slice(0, -2);
    text =
      parts.length === 1 && parts[0].length < item.name.length ? `${parts[0]}…` : parts.join(' · ');
  }
  return ctx.measureText(text).width > room ? null : text;
}

function drawMarker(
  ctx: DrawContext,
  x: number,
  y: number,
  item: ItemView,
  theme: ThemeColours,
): void {
  ctx.fillStyle = item.error ? theme.danger : colourOfItem(item);
  ctx.strokeStyle = theme.bg;
  ctx.lineWidth = 1;
  ctx.beginPath();
  if (/abort|retract|exception|error/.test(item.name)) {
    // a triangle for things that went wrong
    ctx.moveTo(x, y - 5);
    ctx.lineTo(x + 5, y + 4);
    ctx.lineTo(x - 5, y + 4);
  } else if (/attempt|summary/.test(item.name)) {
    ctx.rect(x - 4, y - 4, 8, 8);
  } else {
    // a diamond for ordinary instant events
    ctx.moveTo(x, y - 5);
    ctx.lineTo(x + 5, y);
    ctx.lineTo(x, y + 5);
    ctx.lineTo(x - 5, y);
  }
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
}

/** the marker rail's height: the padding below a collapsed row's bars */
const RAIL_HEIGHT = ROW_PADDING / 2;
/** marks on the rail are thin: markers closer than this share one */
const RAIL_GAP_PX = 3;

/** A mark on a collapsed row's rail: a tick, or a dash from a cluster's first to last member. */
function drawRailMark(
  ctx: DrawContext,
  cluster: { x0: number; x1: number },
  railY: number,
  colour: string,
): void {
  ctx.fillStyle = colour;
  ctx.fillRect(cluster.x0 - 1, railY, cluster.x1 - cluster.x0 + 2, RAIL_HEIGHT);
}

function railColour(count: number, first: ItemView, theme: ThemeColours): string {
  if (first.kind === 'orphan' || (count === 1 && first.error)) return theme.danger;
  return count > 1 ? theme.fg : colourOfItem(first);
}

function drawCross(ctx: DrawContext, x: number, y: number, colour: string): void {
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2.5;
  ctx.beginPath();
  ctx.moveTo(x - 4, y - 4);
  ctx.lineTo(x + 4, y + 4);
  ctx.moveTo(x + 4, y - 4);
  ctx.lineTo(x - 4, y + 4);
  ctx.stroke();
}

function drawCluster(
  ctx: DrawContext,
  x: number,
  y: number,
  count: number,
  theme: ThemeColours,
): void {
  ctx.fillStyle = theme.fg;
  ctx.beginPath();
  ctx.arc(x, y, 6.5, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = theme.bg;
  ctx.font = 'bold 9px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.fillText(String(count), x, y + 0.5);
  ctx.textAlign = 'start';
  ctx.font = '11px system-ui, sans-serif';
}

/**
 * Links between spans of one row, as arrows from the linked (earlier) span's end to the
 * linking span's start, where both are drawn; a focused item's (hovered, selected) in the accent
 * colour. A link into an item with a category (a GPU kernel from its launch: one per kernel,
 * thousands per rank, which would hide the bars) is drawn only when one of its ends is focused.
 */
function drawLinks(
  ctx: DrawContext,
  row: RowView,
  hits: HitBox[],
  theme: ThemeColours,
  focus: ReadonlySet<number>,
): number {
  const boxes = new Map<number, HitBox>();
  for (const hit of hits) if (hit.rowId === row.rowId && !hit.point) boxes.set(hit.index, hit);
  const pairs: { from: HitBox; to: HitBox; focused: boolean }[] = [];
  for (const item of row.items) {
    if (!item.links) continue;
    const to = boxes.get(item.index);
    if (!to) continue;
    for (const target of item.links) {
      const from = boxes.get(target);
      const focused = focus.has(item.index) || focus.has(target);
      if (from && (focused || item.category === undefined)) pairs.push({ from, to, focused });
    }
  }
  // the focused last, over the others
  pairs.sort((a, b) => Number(a.focused) - Number(b.focused));
  for (const { from, to, focused } of pairs) {
    const colour = focused ? theme.accent : theme.fgMuted;
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = focused ? 1.5 : 1;
    const x0 = from.x1;
    const y0 = (from.y0 + from.y1) / 2;
    const x1 = to.x0;
    const y1 = (to.y0 + to.y1) / 2;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.bezierCurveTo((x0 + x1) / 2, y0, (x0 + x1) / 2, y1, x1, y1);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - 4, y1 - 3);
    ctx.lineTo(x1 - 4, y1 + 3);
    ctx.closePath();
    ctx.fill();
  }
  return pairs.length;
}
