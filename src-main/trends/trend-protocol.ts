import type { FileError } from '../core/api/trace-api';
import type { TrendPoint } from '../core/model/trend';

/** Trend worker to main: bytes read so far, then the file's point (or why there is none). */
export type TrendWorkerMessage =
  | { type: 'progress'; bytesRead: number }
  | { type: 'done'; point: TrendPoint }
  | { type: 'failed'; error: Omit<FileError, 'fileName'> };
