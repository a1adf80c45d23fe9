/** The shared Int32Array a range worker raises: slot 0 its state, slot RANGE_BYTES progress. */
export const RANGE_RUNNING = 0;
export const RANGE_DONE = 1;
export const RANGE_FAILED = 2;
export const RANGE_BYTES = 1;
