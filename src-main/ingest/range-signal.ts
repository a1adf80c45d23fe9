/**
 * The shared memory a range worker and its file's thread talk through: an Int32Array of its
 * state, its progress in kilobytes, where its part starts (PartBoundary) for formats whose helper
 * decides it, and whether the file's thread told where the part starts (a part started with a
 * LaterStart); that start itself is a Float64 after them (a file may pass 2^31 bytes).
 */
export const RANGE_STATE = 0;
export const RANGE_BYTES = 1;
/** where a PartBoundary's two slots begin */
export const RANGE_BOUNDARY = 2;
/** RANGE_FROM_UNTOLD until the part's start is told, then RANGE_FROM_TOLD (or cancelled) */
export const RANGE_FROM_STATE = 4;
export const RANGE_SLOTS = 6;
/** the part's start: Float64 slot of the same buffer, after the Int32 slots */
export const RANGE_FROM_F64 = RANGE_SLOTS / 2;
/** bytes of the shared buffer */
export const RANGE_SIGNAL_BYTES = (RANGE_FROM_F64 + 1) * 8;

// the values of RANGE_STATE
export const RANGE_RUNNING = 0;
export const RANGE_DONE = 1;
export const RANGE_FAILED = 2;
/** every byte read; packing and posting the columns, which reports no progress */
export const RANGE_POSTING = 3;

// the values of RANGE_FROM_STATE
export const RANGE_FROM_TOLD = 0;
export const RANGE_FROM_UNTOLD = 1;
export const RANGE_FROM_CANCELLED = 2;
