import { setFlagsFromString } from 'node:v8';

/**
 * V8 lets the heap grow to up to four times what lived after the last full collection when
 * collecting is cheap, and opening a file is mostly that: one representation is built while the
 * one before it dies (a Chrome trace's slices become rows; 300,000 tiny processes' 150 MB of
 * them grew the heap to 374 MB before the first full collection after the import). Twice what
 * lived is the cap: peaks fell 11-20% on GPU ranks and 17% on the tiny processes (issue 49's
 * bound), for 11-20% more CPU on a 100 MB GPU rank (more collections) and no change past the noise
 * on a slime dump: memory is the bound users hit on a laptop. Process-wide, so every thread that opens
 * files (ingest workers, helpers) has it; set by each entry before it opens anything.
 */
export function capHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=100');
}
