import type { RowView, RowWindow } from '../../src-main/core/api/trace-api';

/**
 * Whether a big row sent for one window still draws `window` as well: it lies within what was
 * sent, at a resolution not more than 1.5x finer (a zoom in asks for the detail it now shows)
 * nor 4x coarser (a zoom out asks for fewer, wider items).
 */
export function windowCovered(detail: NonNullable<RowView['detail']>, window: RowWindow): boolean {
  const resolution = (window.endSec - window.startSec) / window.pixels;
  return (
    window.startSec >= detail.startSec &&
    window.endSec <= detail.endSec &&
    resolution * 1.5 >= detail.resolutionSec &&
    resolution <= detail.resolutionSec * 4
  );
}

/** How long a window rests before big rows are asked for it again (a wheel zoom moves it often). */
export const WINDOW_REST_MS = 120;
