import { useFilesStore } from '../../../src-renderer/state/files-store';

/** The files store as a page starts: no files, no opens, nothing ended, no errors. */
export function emptyFilesStore(): void {
  useFilesStore.setState({
    files: [],
    activeFileId: null,
    opening: [],
    ended: new Set(),
    errors: [],
  });
}
