/** Types of chrome-writer.mjs (see its comments) for the TypeScript tests that use it. */
export function writeChromeTrace(path: string, events: number): number;
/** A torch.profiler (Kineto) rank trace of about `bytes`; returns the events written. */
export function writeKinetoRankTrace(path: string, bytes: number, rank: number): number;
