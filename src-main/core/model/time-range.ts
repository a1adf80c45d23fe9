/**
 * The largest timestamp (seconds from the clock's zero, either side) an event may carry. Any
 * real clock fits with room to spare: epoch nanoseconds misread as microseconds (1.7e18 us,
 * 1.7e12 s) included. Past it a value is garbage, and keeping it broke every figure after it:
 * a `ts` of 1.7e308 printed "duration Infinity s" and exported as `"ts":null` (issue 49). Such
 * an event is skipped and counted, like any other malformed one, so the rest of the file opens
 * on a sane axis; refusing the whole file for one bad number would lose the rest.
 */
export const MAX_TIME_SEC = 1e14;

/** Is `sec` a usable timestamp (finite, within MAX_TIME_SEC of zero)? */
export const timeInRange = (sec: number): boolean => Math.abs(sec) <= MAX_TIME_SEC;
