import type { RunPendingFile } from '../../src-main/core/api/trace-api';
import { settledCount, type FileReading, type RunTab } from './run-store';

/** A run still opening, as one item: its files in, and the bytes of all its files. */
export interface RunReading {
  /** files in or failed */
  filesIn: number;
  /** every file of the run, or null before main first answers (it is still finding them) */
  files: number | null;
  /** the bytes of the files in, and read so far of the ones still opening */
  bytesRead: number;
  bytesTotal: number;
  /** the files still opening: the ones being read first, then the ones waiting for a worker */
  pending: { file: RunPendingFile; reading: FileReading | null }[];
}

/** How far `run` is opened; null once it is complete or failed (nothing is read any more). */
export function runReading(run: RunTab): RunReading | null {
  if (run.state === 'failed') return null;
  const heard = Object.values(run.reading);
  const { result } = run;
  if (!result) {
    // before the first answer only the files' own progress says anything
    return {
      filesIn: 0,
      files: null,
      bytesRead: heard.reduce((n, r) => n + r.bytesRead, 0),
      bytesTotal: heard.reduce((n, r) => n + r.bytesTotal, 0),
      pending: [],
    };
  }
  if (result.complete) return null;
  const pending = result.pending
    .map((file) => ({ file, reading: run.reading[file.openId] ?? null }))
    // stable: the files being read keep main's order among themselves, as do the waiting ones
    .sort((a, b) => Number(b.reading !== null) - Number(a.reading !== null));
  const inBytes = result.files.reduce((n, { file }) => n + file.bytes, 0);
  return {
    filesIn: settledCount(result),
    files: settledCount(result) + result.pending.length,
    bytesRead:
      inBytes + pending.reduce((n, p) => n + Math.min(p.reading?.bytesRead ?? 0, p.file.bytes), 0),
    bytesTotal: inBytes + pending.reduce((n, p) => n + p.file.bytes, 0),
    pending,
  };
}
