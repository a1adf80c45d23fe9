import type { FileError } from '../core/api/trace-api';
import type { OpenProgressReport, OpenedTrace } from '../core/open/open-trace-file';
import type { FileCallName } from './file-calls';

/** One file, or one rotated OTLP set (oldest first), as the worker receives it. */
export type IngestSource =
  { kind: 'path'; path: string } | { kind: 'bytes'; name: string; bytes: Uint8Array };

export interface IngestRequest {
  sources: IngestSource[];
  joinByBootstrapRoom?: boolean;
}

/** Worker to main: progress, then the summary once the file is open (or why it is not). */
export type IngestMessage =
  | { type: 'progress'; progress: OpenProgressReport }
  | { type: 'done'; summary: OpenedTrace['summary'] }
  | { type: 'failed'; error: Omit<FileError, 'fileName'> }
  | {
      type: 'answer';
      id: number;
      result?: unknown;
      error?: { notFound: boolean; message: string };
    };

/** Main to worker, once the file is open: one call on the file it holds. */
export interface FileCallMessage {
  type: 'call';
  id: number;
  method: FileCallName;
  args: unknown[];
}
