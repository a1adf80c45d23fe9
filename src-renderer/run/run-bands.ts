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
