import type { TraceHost } from '../host/trace-host';
import { useFilesStore } from '../state/files-store';
import { useRunStore } from '../run/run-store';
import { downloadExported } from './export-active-file';

/**
 * Shares what is shown as one HTML report (issue 47): the run tab shown (the run's report, as
 * `trace-explorer report RUN_FOLDER` makes it), else the active file, or A and B while
 * comparing; made by main (TraceApi.exportReport), saved through the browser's download.
 */
export async function shareReport(host: TraceHost, withContent: boolean): Promise<void> {
  const { activeFileId, compareFileId, addError, files } = useFilesStore.getState();
  const { activeId: runId, runs } = useRunStore.getState();
  if (!activeFileId && !runId) return;
  const fileIds = compareFileId ? [activeFileId!, compareFileId] : [activeFileId!];
  try {
    const report = await host.api.exportReport(
      runId
        ? { fileIds: [], compare: false, withContent, runId }
        : { fileIds, compare: compareFileId !== null, withContent },
    );
    downloadExported(report);
  } catch (error) {
    addError({
      code: 'report/failed',
      message: error instanceof Error ? error.message : String(error),
      fileName: runId
        ? (runs.find((r) => r.id === runId)?.title ?? 'run')
        : (files.find((f) => f.fileId === activeFileId)?.name ?? 'file'),
    });
  }
}
