import type { DrawContext } from '../timeline/draw-context';
import type { ThemeColours } from '../timeline/draw-timeline';
import { BAND_LINE_PX, type RunBandStrip } from './run-bands';

const LABEL_FONT = '10px system-ui, sans-serif';
const VERSION_FONT = '600 10px system-ui, sans-serif';

/**
 * The band strip on a canvas, as RunBands draws it in SVG (run.css's colours): a picture made
 * without the page (the CLI's PNG) has no SVG to copy. `ctx` is at the strip's top left.
 */
export function drawRunBands(
  ctx: DrawContext,
  strip: RunBandStrip,
  width: number,
  theme: ThemeColours,
): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, 0, width, strip.height);
  ctx.clip();
  ctx.textBaseline = 'alphabetic';
  ctx.textAlign = 'start';
  ctx.font = LABEL_FONT;
  for (const r of strip.rollouts) {
    if (r.x1 < 0 || r.x0 > width) continue;
    ctx.globalAlpha = 0.18;
    ctx.fillStyle = theme.accent;
    ctx.fillRect(r.x0, r.line * BAND_LINE_PX + 1, r.x1 - r.x0, BAND_LINE_PX - 2);
    ctx.globalAlpha = 1;
    if (r.elided) continue;
    ctx.fillStyle = theme.fgMuted;
    ctx.fillText(r.label, Math.max(r.x0, 0) + 3, r.line * BAND_LINE_PX + 12);
  }
  ctx.font = VERSION_FONT;
  ctx.strokeStyle = theme.accent;
  ctx.fillStyle = theme.accent;
  ctx.lineWidth = 1;
  for (const s of strip.syncs) {
    if (s.x < -20 || s.x > width + 20) continue;
    ctx.setLineDash([3, 2]);
    ctx.beginPath();
    ctx.moveTo(s.x, 0);
    ctx.lineTo(s.x, strip.height);
    ctx.stroke();
    ctx.setLineDash([]);
    if (!s.elided) ctx.fillText(s.label, s.x + 2, strip.lines * BAND_LINE_PX + 12);
  }
  ctx.restore();
}
