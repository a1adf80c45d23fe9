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
