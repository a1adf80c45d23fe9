import type { FileSummary } from '../../src-main/core/api/trace-api';
import { useFilesStore } from '../state/files-store';
import { useViewStore } from '../state/view-store';

/** Leaves compare and shows exactly these rows of one side's file in its timeline. */
export function showRowsOf(file: FileSummary, rowIds: number[], label: string): void {
  const files = useFilesStore.getState();
  files.setCompare(null);
  files.setActive(file.fileId);
  const view = useViewStore.getState();
  view.setView('timeline');
  view.setFilter({ rowIds });
  view.setPickedLabel(label);
}
