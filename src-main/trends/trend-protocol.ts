import type { FileError } from '../core/api/trace-api';
import type { RunFileDigest } from '../core/model/run';
import type { TrendPoint } from '../core/model/trend';

/** Main to a trend worker: read this dump (a worker reads one at a time, in the order sent). */
export interface TrendJobRequest {
  job: number;
  path: string;
  /** post the dump's run digest with its point (a run's joins take it: runDigestOfFigures) */
  digest?: boolean;
}

/** Trend worker to main: bytes read so far, then the file's point (or why there is none). */
export type TrendWorkerMessage =
  | { type: 'progress'; bytesRead: number }
  | { type: 'done'; point: TrendPoint; digest?: RunFileDigest }
  | { type: 'failed'; error: Omit<FileError, 'fileName'> };

/** How a job ends: its point, or why there is none. */
export type TrendJobResult = Exclude<TrendWorkerMessage, { type: 'progress' }>;

/** What a worker posts: a message about the job it names. */
export type TrendJobMessage = TrendWorkerMessage & { job: number };
