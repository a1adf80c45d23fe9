import type { FileError } from '../core/api/trace-api';
import type { OpenProgressReport, OpenedTrace } from '../core/open/open-trace-file';

/** One file, or one rotated OTLP set (oldest first), as the worker receives it. */
export type IngestSource =
  { kind: 'path'; path: string } | { kind: 'bytes'; name: string; bytes: Uint8Array };

export interface IngestRequest {
  sources: IngestSource[];
  joinByBootstrapRoom?: boolean;
}

export type IngestMessage =
  | { type: 'progress'; progress: OpenProgressReport }
  | { type: 'done'; trace: OpenedTrace }
  | { type: 'failed'; error: Omit<FileError, 'fileName'> };
