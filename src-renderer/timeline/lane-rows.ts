import type { DrawRow } from './draw-timeline';
import type { LaneLayout } from './lane-group';
import { laneNames } from './lane-names';
import type { PictureLabel, PictureText } from './timeline-picture';

/** The lane label's left padding, a depth's indent and its toggle's room (timeline.css). */
const LABEL_PAD = 4;
const DEPTH_INDENT = 14;
const TOGGLE_ROOM = 20;
/** where an expanded row's lane names start (.lane-label-lane) */
const LANE_NAMES_X = 22;
/** a stale row's badge (timeline.css); another badge is grey */
const STALE_FILL = '#e8590c';
const BADGE_FILL = '#8c959f';

/**
 * The lane rows shown, as drawTimeline takes them: each under its entry index as row id (so
 * hits and stats name entries), every second row of a group shaded. Headers draw nothing on the
 * canvas; rows not fetched yet are left out.
 */
export function laneDrawRows(
  layout: LaneLayout,
  first: number,
  last: number,
  scrollTop: number,
): DrawRow[] {
  const rows: DrawRow[] = [];
  let shade = 0;
  for (let i = first; i <= last && i < layout.entries.length; i++) {
    const entry = layout.entries[i];
    if (entry.kind === 'header') {
      shade = 0;
      continue;
    }
    shade++;
    if (!entry.row.row) continue;
    rows.push({
      row: { ...entry.row.row, rowId: i },
      y: layout.tops[i] - scrollTop,
      expanded: entry.row.expanded,
      shaded: shade % 2 === 0,
      dimmed: false,
    });
  }
  return rows;
}

/** The label column of the lane entries shown, as LaneLabel draws it, for a picture. */
export function lanePictureLabels(
  layout: LaneLayout,
  first: number,
  last: number,
  scrollTop: number,
): PictureLabel[] {
  const labels: PictureLabel[] = [];
  for (let i = first; i <= last && i < layout.entries.length; i++) {
    const entry = layout.entries[i];
    const place = { y: layout.tops[i] - scrollTop, height: layout.heights[i] };
    if (entry.kind === 'header') {
      const { group } = entry;
      const texts: PictureText[] = [
        { text: group.title.toUpperCase(), tone: 'title' },
        { text: String(group.rows.length), tone: 'muted' },
      ];
      if (group.note) texts.push({ text: group.note, tone: 'muted' });
      labels.push({ ...place, shaded: false, dimmed: false, x: 8, texts });
      continue;
    }
    const { row } = entry;
    const texts: PictureText[] = [{ text: row.label, tone: 'fg' }];
    if (row.detail) texts.push({ text: row.detail, tone: 'muted' });
    if (row.badge)
      texts.push({
        text: row.badge,
        tone: 'pill',
        fill: row.mark === 'stale' ? STALE_FILL : BADGE_FILL,
      });
    const lanes =
      row.row && row.expanded && row.laneCount > 1
        ? { x: LANE_NAMES_X, names: laneNames(row.row).slice(1) }
        : undefined;
    labels.push({
      ...place,
      shaded: false,
      dimmed: false,
      x: LABEL_PAD + (row.depth ?? 0) * DEPTH_INDENT + TOGGLE_ROOM,
      texts,
      lanes,
    });
  }
  return labels;
}
