import type { ExportFormat, ExportedFile } from '../../src-main/core/api/trace-api';
import type { TraceHost } from '../host/trace-host';
import { useFilesStore } from '../state/files-store';
import { useTrendsStore } from '../state/trends-store';
import { useRunStore } from '../run/run-store';
import { exportAvailability } from './compare-availability';

/** Saves an export through the browser's download (Electron shows its save dialog). */
export async function exportActiveFile(host: TraceHost, format: ExportFormat): Promise<void> {
  const { activeFileId, addError, files } = useFilesStore.getState();
  // the menu's Export too: never the file hidden behind a run or trends tab
  const shown = {
    hasFile: activeFileId !== null,
    runActive: useRunStore.getState().activeId !== null,
    trendsActive: useTrendsStore.getState().activeId !== null,
  };
  if (!activeFileId || !exportAvailability(shown).available) return;
  const name = files.find((f) => f.fileId === activeFileId)?.name ?? 'file';
  try {
    downloadExported(await host.api.exportTrace(activeFileId, format));
  } catch (error) {
    addError({
      code: 'export/failed',
      message: error instanceof Error ? error.message : String(error),
      fileName: name,
    });
  }
}

/** Hands an exported file to the browser's download (Electron: its save dialog). */
export function downloadExported(exported: ExportedFile): void {
  const bytes = Uint8Array.from(atob(exported.bytesBase64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: exported.mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exported.fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
