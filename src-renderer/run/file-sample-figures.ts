import { useMemo } from 'react';
import type { FileSummary } from '../../src-main/core/api/trace-api';
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
  const result = useRunStore(
    (s) =>
      s.runs.find((r) => r.result && runFileIndex(r.result.files, { fileId, path }) >= 0)?.result,
  );
  return useMemo(() => {
    const extra = result?.joins.extra;
    if (!result || !extra) return null;
    const at = runFileIndex(result.files, { fileId, path });
    const samples = extra.samples.filter((s) => s.file === at);
    return samples.length > 0 ? new Map(samples.map((s) => [s.rowId, s])) : null;
  }, [result, fileId, path]);
}
