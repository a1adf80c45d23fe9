import type { FileSummary } from '../../src-main/core/api/trace-api';

export interface Window {
  startSec: number;
  endSec: number;
}

const MIN_SPAN_SEC = 1e-6;

/** Zoom by `factor` (< 1 zooms in) keeping the time under `anchorFrac` of the width fixed. */
export function zoomWindow(w: Window, factor: number, anchorFrac: number): Window {
  const span = Math.max(MIN_SPAN_SEC, (w.endSec - w.startSec) * factor);
  const anchor = w.startSec + (w.endSec - w.startSec) * anchorFrac;
  return { startSec: anchor - span * anchorFrac, endSec: anchor + span * (1 - anchorFrac) };
}

export function panWindow(w: Window, deltaFrac: number): Window {
  const shift = (w.endSec - w.startSec) * deltaFrac;
  return { startSec: w.startSec + shift, endSec: w.endSec + shift };
}

/** A window around [start, end] with a margin, never narrower than a microsecond. */
export function fitWindow(startSec: number, endSec: number, margin = 0.03): Window {
  const span = Math.max(MIN_SPAN_SEC, endSec - startSec);
  return { startSec: startSec - span * margin, endSec: endSec + span * margin };
}

/**
 * What "fit all" shows of a file: its whole duration (or `fitSec`), except that (ours) a
 * rollout that resumed samples of an earlier one opens on its own window.
 */
export function fitAllWindow(
  file: Pick<FileSummary, 'globalStartSec' | 'globalEndSec' | 'rolloutWindow'>,
  fitSec?: number,
): Window {
  const own = fitSec === undefined ? file.rolloutWindow : undefined;
  if (own) return fitWindow(own.ownStartSec, own.ownEndSec);
  return fitWindow(
    0,
    fitSec ?? Math.max(1e-6, (file.globalEndSec ?? 0) - (file.globalStartSec ?? 0)),
  );
}

/** W/S step: one press zooms 1.25x; held, each repeat zooms more, up to about 2.4x a repeat. */
export const KEY_ZOOM_STEP = 0.8;
const KEY_ZOOM_MAX_POWER = 4;

/**
 * The factor of the `repeat`-th W (in) or S (out) of one hold (0 for the first press): the step
 * grows with the repeats, as Perfetto's zoom speeds up while the key is held, so a decode span's
 * milliseconds in a minute-long rollout are a second's hold, not forty presses.
 */
export function keyZoomFactor(zoomIn: boolean, repeat: number): number {
  const power = Math.min(KEY_ZOOM_MAX_POWER, 1 + repeat / 4);
  const factor = KEY_ZOOM_STEP ** power;
  return zoomIn ? factor : 1 / factor;
}
