/**
 * One time format for the timeline: ticks, tooltips, the cursor readout and the details panel
 * all show a time as a compact clock from the file's start (`52:50.0`, `1:02:13.350`; a
 * compared timeline's from its own window start, `timeline-clock.ts`) with as many decimals as
 * the zoom needs; durations keep units (`1.67 min`, `12.5 ms`).
 */

/** Tick steps in seconds: 1-2-5 below a second, then clock-friendly steps. */
const CLOCK_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 43200];

/** The smallest step of the ladder that is at least `minStepSec`. */
export function niceStep(minStepSec: number): number {
  if (!(minStepSec > 0)) return 1e-9;
  if (minStepSec >= 1) {
    for (const step of CLOCK_STEPS) if (step >= minStepSec) return step;
    return Math.ceil(minStepSec / 86400) * 86400;
  }
  const power = 10 ** Math.floor(Math.log10(minStepSec));
  for (const m of [1, 2, 5, 10]) {
    // rounding keeps 0.1 * 3 style error from skipping a step
    const step = Number((m * power).toPrecision(12));
    if (step >= minStepSec * (1 - 1e-12)) return step;
  }
  return 10 * power;
}

/** Decimals that tell apart two times `stepSec` apart. */
export function decimalsFor(stepSec: number): number {
  if (stepSec >= 1) return 0;
  return Math.min(9, Math.max(0, Math.ceil(-Math.log10(stepSec) - 1e-9)));
}

/**
 * `sec` (from the file's start) as a clock: `m:ss.d…` under an hour, `h:mm:ss.d…` from an hour
 * on (or always, with `withHours`), negative with a leading minus.
 */
export function formatClock(sec: number, decimals: number, withHours = false): string {
  const sign = sec < 0 ? '-' : '';
  const scale = 10 ** decimals;
  // round once, on the whole value, so 59.9999 becomes 1:00.0 and never 0:60.0
  const units = Math.round(Math.abs(sec) * scale);
  const whole = Math.floor(units / scale);
  const fraction = units - whole * scale;
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  const frac = decimals > 0 ? `.${String(fraction).padStart(decimals, '0')}` : '';
  const ss = `${String(s).padStart(2, '0')}${frac}`;
  if (h > 0 || withHours) return `${sign}${h}:${String(m).padStart(2, '0')}:${ss}`;
  return `${sign}${m}:${ss}`;
}

export interface Tick {
  sec: number;
  /** x in CSS pixels from the axis' left edge */
  x: number;
  label: string;
}

/** Rough width of a tick label at the axis font (10 px, tabular digits). */
export function labelWidthPx(label: string): number {
  return label.length * 6.2;
}

/**
 * Ticks at round steps over [startSec, endSec] drawn `widthPx` wide: the step grows until the
 * labels (whose decimals follow the step) fit with a gap, so no two visible labels are equal.
 */
export function buildTicks(startSec: number, endSec: number, widthPx: number): Tick[] {
  const span = endSec - startSec;
  if (!(span > 0) || !(widthPx > 0)) return [];
  const withHours = Math.max(Math.abs(startSec), Math.abs(endSec)) >= 3600;
  let step = niceStep((span * 70) / widthPx);
  for (let guard = 0; guard < 40; guard++) {
    const decimals = decimalsFor(step);
    const sample = formatClock(endSec, decimals, withHours);
    const spacingPx = (step / span) * widthPx;
    if (spacingPx >= labelWidthPx(sample) + 14) break;
    step = niceStep(step * 1.01);
  }
  const decimals = decimalsFor(step);
  const ticks: Tick[] = [];
  const first = Math.ceil(startSec / step - 1e-9);
  for (let k = first; k * step <= endSec + step * 1e-9; k++) {
    const sec = k * step;
    // float error can put the first or last tick a hair outside the axis
    const x = Math.min(widthPx, Math.max(0, ((sec - startSec) / span) * widthPx));
    ticks.push({
      sec,
      x,
      label: formatClock(sec, decimals, withHours),
    });
  }
  return ticks;
}

/**
 * Where a tick's label goes on an axis `widthPx` wide: centred under its tick, except the first
 * and last, kept whole inside the axis (start- or end-anchored).
 */
export function placeTickLabel(
  tick: Pick<Tick, 'x' | 'label'>,
  widthPx: number,
): { x: number; anchor: 'start' | 'middle' | 'end' } {
  const half = labelWidthPx(tick.label) / 2;
  if (tick.x - half < 0) return { x: Math.max(0, tick.x - 2), anchor: 'start' };
  if (tick.x + half > widthPx) return { x: Math.min(widthPx, tick.x + 2), anchor: 'end' };
  return { x: tick.x, anchor: 'middle' };
}

/** Decimals for a time shown alone (tooltip, readout) at a zoom where `pxSec` is one pixel. */
export function decimalsForPixel(secPerPx: number): number {
  return Math.max(1, decimalsFor(secPerPx));
}

/** Decimals of a time exact to the microsecond (titles, the details panel). */
export const EXACT_DECIMALS = 6;

/** A time from the file's start, exact to the microsecond: hover titles, copy, details. */
export function formatExactClock(sec: number): string {
  return formatClock(sec, EXACT_DECIMALS);
}

/** A duration with its unit, precise enough to tell close ones apart. */
export function formatDuration(sec: number): string {
  const abs = Math.abs(sec);
  if (abs >= 3600) return `${(sec / 3600).toFixed(2)} h`;
  if (abs >= 60) return `${(sec / 60).toFixed(2)} min`;
  if (abs >= 1) return `${sec.toFixed(abs >= 10 ? 1 : 2)} s`;
  if (abs >= 1e-3) return `${(sec * 1e3).toFixed(abs >= 0.01 ? 1 : 2)} ms`;
  return `${(sec * 1e6).toFixed(0)} µs`;
}
