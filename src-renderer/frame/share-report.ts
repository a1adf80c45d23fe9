import type { TraceHost } from '../host/trace-host';
import { useFilesStore } from '../state/files-store';
import { downloadExported } from './export-active-file';

/**
 * Shares what is shown as one HTML report (issue 47): the active file, or A and B while
 * comparing; made by main (TraceApi.exportReport), saved through the browser's download.
 */
export async function shareReport(host: TraceHost, withContent: boolean): Promise<void> {
  const { activeFileId, compareFileId, addError, files } = useFilesStore.getState();
  if (!activeFileId) return;
  const fileIds = compareFileId ? [activeFileId, compareFileId] : [activeFileId];
  try {
    const report = await host.api.exportReport({
      fileIds,
      compare: compareFileId !== null,
      withContent,
    });
    downloadExported(report);
  } catch (error) {
    addError({
      code: 'report/failed',
      message: error instanceof Error ? error.message : String(error),
      fileName: files.find((f) => f.fileId === activeFileId)?.name ?? 'file',
    });
  }
}
