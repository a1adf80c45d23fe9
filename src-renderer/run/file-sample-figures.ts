import { useMemo } from 'react';
import type { FileSummary, RunResult } from '../../src-main/core/api/trace-api';
import type { RunSampleFigures } from '../../src-main/core/model/run-extra';
import { runFileIndex } from '../../src-main/core/model/run-file-index';
import { useRunStore } from './run-store';

/**
 * What an open run's train dumps and request metrics say of each sample of `file` (runFileIndex:
 * the run's own, or the same file on disk opened apart), by row; null when no run with such
 * files holds it (or none of its samples is joined).
 */
export function useFileSampleFigures(
  file: Pick<FileSummary, 'fileId' | 'path'>,
): Map<number, RunSampleFigures> | null {
  const { fileId, path } = file;
  // the first run with figures for it (the same folder opened twice: one may still be reading)
  const result = useRunStore(
    (s) => s.runs.find((r) => figuresOf(r.result, fileId, path).length > 0)?.result ?? null,
  );
  return useMemo(() => {
    const samples = figuresOf(result, fileId, path);
    return samples.length > 0 ? new Map(samples.map((s) => [s.rowId, s])) : null;
  }, [result, fileId, path]);
}

function figuresOf(
  result: RunResult | null,
  fileId: string,
  path: string | null,
): RunSampleFigures[] {
  const extra = result?.joins.extra;
  if (!result || !extra) return [];
  const at = runFileIndex(result.files, { fileId, path });
  return at < 0 ? [] : extra.samples.filter((s) => s.file === at);
}
