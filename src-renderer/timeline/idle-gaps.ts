import type { FileSummary } from '../../src-main/core/api/trace-api';
import type { DrawContext } from './draw-context';
import { formatDuration } from './time-format';

/** (ours) The idle time between a resumed sample's attempts: no span covers it. */
export interface IdleGap {
  startSec: number;
  endSec: number;
  label: string;
}

export function idleGapsByRow(file: FileSummary): Map<number, IdleGap> {
  const gaps = new Map<number, IdleGap>();
  for (const gap of file.rolloutWindow?.idleGaps ?? []) {
    gaps.set(gap.rowId, {
      startSec: gap.startSec,
      endSec: gap.endSec,
      label: `idle ${formatDuration(gap.endSec - gap.startSec)} between attempts · started in rollout ${gap.startRolloutId}`,
    });
  }
  return gaps;
}

/**
 * A dashed line across the first lane where the sample waited between rollouts, with its
 * length when there is room: slime's viewer leaves this stretch blank (ours). Returns 1 when drawn.
 */
export function drawIdleGap(
  ctx: DrawContext,
  gap: IdleGap,
  xOf: (sec: number) => number,
  top: number,
  width: number,
  theme: { fgMuted: string; bg: string },
  laneHeight: number,
): number {
  const x0 = Math.max(-2, xOf(gap.startSec));
  const x1 = Math.min(width + 2, xOf(gap.endSec));
  if (x1 <= x0) return 0;
  const mid = top + laneHeight / 2;
  ctx.save();
  ctx.strokeStyle = theme.fgMuted;
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 3]);
  ctx.beginPath();
  ctx.moveTo(x0, mid);
  ctx.lineTo(x1, mid);
  ctx.stroke();
  ctx.setLineDash([]);
  const textWidth = ctx.measureText(gap.label).width;
  if (x1 - x0 > textWidth + 12) {
    const x = Math.max(x0 + 6, Math.min((x0 + x1 - textWidth) / 2, x1 - textWidth - 6));
    ctx.globalAlpha = 1;
    ctx.fillStyle = theme.bg;
    ctx.fillRect(x - 4, mid - 7, textWidth + 8, 14);
    ctx.fillStyle = theme.fgMuted;
    ctx.fillText(gap.label, x, mid);
  }
  ctx.restore();
  return 1;
}
