import { bytesSource, type ByteSource } from '../core/bytes/byte-source';
import { openFileSource } from '../core/bytes/file-source';
import { FormatError } from '../core/bytes/format-error';
import {
  openTraceFigures,
  openTraceFile,
  type OpenOptions,
  type OpenedTrace,
  type TraceFigures,
} from '../core/open/open-trace-file';
import type { FileError } from '../core/api/trace-api';
import type { IngestRequest } from './ingest-protocol';
import { terminalLines } from '../core/bytes/terminal-text';

/**
 * Opens the request's files as byte sources, runs the pipeline, and always closes them. The
 * thread entries (ingest-worker.ts, cli.ts) give `options.partReader`: a helper thread.
 */
export function ingest(request: IngestRequest, options: OpenOptions = {}): OpenedTrace {
  return withSources(request, (sources) =>
    openTraceFile(sources, { ...options, joinByBootstrapRoom: request.joinByBootstrapRoom }),
  );
}

/** One file's trend figures' input (openTraceFigures: no store), its source always closed. */
export function ingestFigures(path: string, options: OpenOptions = {}): TraceFigures {
  return withSources({ sources: [{ kind: 'path', path }] }, (sources) =>
    openTraceFigures(sources, options),
  );
}

function withSources<T>(request: IngestRequest, use: (sources: ByteSource[]) => T): T {
  const closers: (() => void)[] = [];
  try {
    const sources: ByteSource[] = request.sources.map((source) => {
      if (source.kind === 'bytes') return bytesSource(source.name, source.bytes);
      const file = openPathSource(source.path);
      closers.push(() => file.close());
      return file;
    });
    return use(sources);
  } finally {
    for (const close of closers) close();
  }
}

/** A file by path, with the coded errors a user sees (not found, a folder, no permission). */
export function openPathSource(path: string) {
  try {
    return openFileSource(path);
  } catch (error) {
    if (error instanceof FormatError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new FormatError('io/not-found', 'no such file');
    if (code === 'EISDIR') throw new FormatError('io/is-directory', 'is a folder, not a file');
    if (code === 'EACCES') throw new FormatError('io/permission', 'permission denied');
    throw new FormatError('io/read-failed', (error as Error).message);
  }
}

/** Any thrown value as the error a user sees beside the file. */
export function toFileError(error: unknown): Omit<FileError, 'fileName'> {
  if (error instanceof FormatError) {
    return { code: error.code, message: error.message, offset: error.offset };
  }
  // what follows is a bug or a limit of the runtime: the user gets what it means, the
  // terminal (the worker's stderr) gets the internal message for a bug report
  process.stderr.write(
    `trace-explorer: ${terminalLines(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
  );
  if (error instanceof RangeError && /call stack/i.test(error.message)) {
    return { code: 'open/too-deep', message: 'the file nests values too deeply to read' };
  }
  if (error instanceof RangeError) {
    return { code: 'open/too-large', message: 'the file needs more memory than can be allocated' };
  }
  return {
    code: 'open/internal',
    message: 'the file could not be read (an internal error; the terminal has the details)',
  };
}
