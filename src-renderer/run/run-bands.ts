import type { RunJoins } from '../../src-main/core/api/trace-api';
import type { Window } from '../timeline/time-window';

/** A mark on the run's band strip: a rollout's extent or a weight version's sync, in pixels. */
export interface BandMark {
  x0: number;
  x1: number;
  /** the text's width in pixels */
  labelPx: number;
}

/**
 * The line each mark is drawn on: the first line where it (and its label) overlaps no mark
 * already placed, so two rollouts' labels never print over each other; at most `maxLines`
 * lines, and a mark that fits on none is placed on the last line with its label elided
 * (`elided`: the text is left out and kept for the hover).
 */
export function placeBands(
  marks: readonly BandMark[],
  maxLines: number,
): { line: number; elided: boolean }[] {
  const lineEnds: number[] = [];
  const order = marks.map((_, i) => i).sort((a, b) => marks[a].x0 - marks[b].x0);
  const placed: { line: number; elided: boolean }[] = marks.map(() => ({
    line: 0,
    elided: false,
  }));
  for (const i of order) {
    const { x0, x1, labelPx } = marks[i];
    const end = Math.max(x1, x0 + labelPx + 6);
    let line = lineEnds.findIndex((lineEnd) => lineEnd <= x0);
    if (line < 0 && lineEnds.length < maxLines) line = lineEnds.length;
    if (line < 0) {
      placed[i] = { line: maxLines - 1, elided: true };
      lineEnds[maxLines - 1] = Math.max(lineEnds[maxLines - 1], x1);
      continue;
    }
    lineEnds[line] = end;
    placed[i] = { line, elided: false };
  }
  return placed;
}

export const BAND_LINE_PX = 16;
const MAX_LINES = 2;
/** about the width of a 10 px label's character */
const CHAR_PX = 6;

/** The band strip over a window: what RunBands draws as SVG and the headless picture on a canvas. */
export interface RunBandStrip {
  rollouts: { key: string; label: string; x0: number; x1: number; line: number; elided: boolean }[];
  syncs: { key: string; label: string; x: number; elided: boolean }[];
  /** lines of rollout bands (the version labels go on a line below them) */
  lines: number;
  height: number;
}

/**
 * Each rollout's extent as a band and each weight version where its sync completed, in pixels
 * of a strip `width` wide showing `window` (seconds from `zeroSec`, epoch seconds): bands whose
 * labels would meet go on a second line, past that the label is left out.
 */
export function runBandStrip(
  joins: Pick<RunJoins, 'rollouts' | 'versionSyncs'>,
  zeroSec: number,
  window: Window,
  width: number,
): RunBandStrip {
  const xOf = (epochSec: number) =>
    ((epochSec - zeroSec - window.startSec) / (window.endSec - window.startSec)) * width;
  const rollouts = joins.rollouts.map((r) => {
    const label = `rollout ${String(r.rolloutId)}${r.weightVersion === null ? '' : ` · v${r.weightVersion}`}`;
    const x0 = xOf(r.startSec);
    return { key: `r${r.file}`, label, x0, x1: Math.max(x0 + 2, xOf(r.endSec)) };
  });
  const syncs = joins.versionSyncs
    .filter((v) => v.completeSec !== null)
    .map((v) => ({
      key: `v${v.weightVersion}`,
      label: `v${v.weightVersion}`,
      x: xOf(v.completeSec!),
    }));
  const bandLines = placeBands(
    rollouts.map((r) => ({ x0: r.x0, x1: r.x1, labelPx: r.label.length * CHAR_PX })),
    MAX_LINES,
  );
  const versionLines = placeBands(
    syncs.map((s) => ({ x0: s.x, x1: s.x, labelPx: s.label.length * CHAR_PX + 4 })),
    1,
  );
  const lines = Math.max(1, ...bandLines.map((p) => p.line + 1));
  return {
    rollouts: rollouts.map((r, i) => ({ ...r, ...bandLines[i] })),
    syncs: syncs.map((s, i) => ({ ...s, elided: versionLines[i].elided })),
    lines,
    height: lines * BAND_LINE_PX + BAND_LINE_PX,
  };
}
