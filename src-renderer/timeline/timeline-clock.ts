import { EXACT_DECIMALS, buildTicks, formatClock, type Tick } from './time-format';
import type { Window } from './time-window';

/**
 * What one timeline's times read as. Its items and window are in seconds from its file's start;
 * what it shows is either a clock from its zero (the file's start, or in Compare the start of
 * its rollout's own window, so A and B read alike at the same moment of their own work) or the
 * wall clock (UTC time of day), which is absolute and never shifted.
 */
export interface TimelineClock {
  /** added to a time in file seconds to give the time shown */
  shownMinusFileSec: number;
  wall: boolean;
}

/**
 * The clock of a timeline whose zero is `zeroSec` (file seconds); `wallClockStartSec` is the
 * file's start as epoch seconds when the wall clock is on, else null.
 */
export function timelineClock(zeroSec: number, wallClockStartSec: number | null): TimelineClock {
  return wallClockStartSec === null
    ? { shownMinusFileSec: -zeroSec, wall: false }
    : { shownMinusFileSec: wallClockStartSec % 86400, wall: true };
}

/** `fileSec` as the clock shows it, with `decimals` (the axis' format at the current zoom). */
export function clockText(clock: TimelineClock, fileSec: number, decimals: number): string {
  return formatClock(fileSec + clock.shownMinusFileSec, decimals, clock.wall);
}

/** `fileSec` as the clock shows it, exact to the microsecond (hover titles). */
export function exactClockText(clock: TimelineClock, fileSec: number): string {
  return clockText(clock, fileSec, EXACT_DECIMALS);
}

/**
 * The axis' ticks over `window` drawn `widthPx` wide: at round times of the clock shown, not of
 * the file (the axis and the pictures of it alike).
 */
export function axisTicks(window: Window, widthPx: number, clock: TimelineClock): Tick[] {
  const shift = clock.shownMinusFileSec;
  return buildTicks(shift + window.startSec, shift + window.endSec, widthPx);
}
