/**
 * The shared Int32Array a range worker raises: its state, its progress in kilobytes, and where
 * its part starts (PartBoundary) for formats whose helper decides it.
 */
export const RANGE_STATE = 0;
export const RANGE_BYTES = 1;
/** where a PartBoundary's two slots begin */
export const RANGE_BOUNDARY = 2;
export const RANGE_SLOTS = 4;

// the values of RANGE_STATE
export const RANGE_RUNNING = 0;
export const RANGE_DONE = 1;
export const RANGE_FAILED = 2;
/** every byte read; packing and posting the columns, which reports no progress */
export const RANGE_POSTING = 3;
