import { create } from 'zustand';
import {
  openEnded,
  type FileError,
  type FileSummary,
  type OpenProgress,
} from '../../src-main/core/api/trace-api';

export interface OpeningFile {
  openId: string;
  name: string;
  bytesRead: number;
  bytesTotal: number;
  samplesRead: number;
  /** the tab its rows show in while it is read (previews), if any yet */
  fileId?: string;
  /**
   * serve mode sends a picked file's bytes first: 'preparing' (encoding them), 'uploading' (on
   * the wire), then 'reading' (main reads it; progress events from then on)
   */
  stage?: 'preparing' | 'uploading' | 'reading';
  /** set when Cancel is pressed before main knows of the open */
  cancelled?: boolean;
}

export interface FilesState {
  files: FileSummary[];
  activeFileId: string | null;
  /** second file of a side-by-side comparison with the active one */
  compareFileId: string | null;
  opening: OpeningFile[];
  errors: FileError[];
  addFile(file: FileSummary): void;
  removeFile(fileId: string): void;
  /** the same file opened again (other options): same tab position, new id */
  replaceFile(oldFileId: string, file: FileSummary): void;
  setActive(fileId: string): void;
  setCompare(fileId: string | null): void;
  startOpening(openId: string, name: string, bytesTotal: number): void;
  progress(progress: OpenProgress): void;
  finishOpening(openId: string): void;
  /** bytes prepared or sent so far, before main reads the file */
  sendProgress(openId: string, stage: 'preparing' | 'uploading', done: number): void;
  cancelLocal(openId: string): void;
  addError(error: FileError): void;
  dismissError(index: number): void;
}

/** Open files, files being opened and open errors: the frame's state, no view state. */
export const useFilesStore = create<FilesState>()((set) => ({
  files: [],
  activeFileId: null,
  compareFileId: null,
  opening: [],
  errors: [],
  addFile: (file) =>
    set((s) => ({
      files: s.files.some((f) => f.fileId === file.fileId) ? s.files : [...s.files, file],
      activeFileId: file.fileId,
    })),
  removeFile: (fileId) =>
    set((s) => {
      const files = s.files.filter((f) => f.fileId !== fileId);
      const activeFileId =
        s.activeFileId === fileId ? (files[files.length - 1]?.fileId ?? null) : s.activeFileId;
      const compareFileId =
        s.compareFileId === fileId || activeFileId === null ? null : s.compareFileId;
      return { files, activeFileId, compareFileId };
    }),
  replaceFile: (oldFileId, file) =>
    set((s) => ({
      files: s.files.map((f) => (f.fileId === oldFileId ? file : f)),
      activeFileId: s.activeFileId === oldFileId ? file.fileId : s.activeFileId,
      compareFileId: s.compareFileId === oldFileId ? file.fileId : s.compareFileId,
    })),
  setActive: (fileId) => set({ activeFileId: fileId }),
  setCompare: (fileId) => set({ compareFileId: fileId }),
  startOpening: (openId, name, bytesTotal) =>
    set((s) => ({
      opening: [...s.opening, { openId, name, bytesRead: 0, bytesTotal, samplesRead: 0 }],
    })),
  progress: (p) =>
    set((s) => {
      // the rows read so far of a file still being read: its tab shows them, growing
      const preview = p.file ? withPreview(s, p.file) : {};
      const known = s.opening.some((o) => o.openId === p.openId);
      // opens that main started (files named at start-up, a folder's other traces) show too
      if (!known && (p.phase === 'reading' || p.phase === 'building')) {
        const started = {
          openId: p.openId,
          name: p.name,
          bytesRead: p.bytesRead,
          bytesTotal: p.bytesTotal,
          samplesRead: p.samplesRead,
          fileId: p.file?.fileId,
        };
        return { ...preview, opening: [...s.opening, started] };
      }
      if (!known) return s;
      if (openEnded(p)) {
        const opening = s.opening.filter((o) => o.openId !== p.openId);
        // a file shown while it was read, then not opened after all: its tab goes
        const shown = s.opening.find((o) => o.openId === p.openId)?.fileId;
        if (p.phase === 'done' || shown === undefined) return { opening };
        const files = s.files.filter((f) => f.fileId !== shown);
        const activeFileId =
          s.activeFileId === shown ? (files[files.length - 1]?.fileId ?? null) : s.activeFileId;
        return { opening, files, activeFileId };
      }
      return {
        ...preview,
        opening: s.opening.map((o) =>
          o.openId === p.openId
            ? {
                ...o,
                stage: 'reading' as const,
                bytesRead: p.bytesRead,
                bytesTotal: Math.max(p.bytesTotal, o.bytesTotal),
                samplesRead: p.samplesRead,
                fileId: p.file?.fileId ?? o.fileId,
              }
            : o,
        ),
      };
    }),
  sendProgress: (openId, stage, done) =>
    set((s) => ({
      opening: s.opening.map((o) =>
        o.openId === openId && o.stage !== 'reading' ? { ...o, stage, bytesRead: done } : o,
      ),
    })),
  cancelLocal: (openId) =>
    set((s) => ({
      opening: s.opening.map((o) => (o.openId === openId ? { ...o, cancelled: true } : o)),
    })),
  finishOpening: (openId) =>
    set((s) => {
      const opening = s.opening.filter((o) => o.openId !== openId);
      // shown while it was read but never opened whole (failed, cancelled): its tab goes
      const shown = s.opening.find((o) => o.openId === openId)?.fileId;
      const stale = s.files.find((f) => f.fileId === shown && f.streaming);
      if (!stale) return { opening };
      const files = s.files.filter((f) => f !== stale);
      const activeFileId =
        s.activeFileId === stale.fileId
          ? (files[files.length - 1]?.fileId ?? null)
          : s.activeFileId;
      return { opening, files, activeFileId };
    }),
  addError: (error) => set((s) => ({ errors: [...s.errors, error] })),
  dismissError: (index) => set((s) => ({ errors: s.errors.filter((_, i) => i !== index) })),
}));

/** A preview replaces its file's summary; the first one adds the tab and shows it. */
function withPreview(s: FilesState, file: FileSummary): Partial<FilesState> {
  if (s.files.some((f) => f.fileId === file.fileId)) {
    return { files: s.files.map((f) => (f.fileId === file.fileId ? file : f)) };
  }
  return { files: [...s.files, file], activeFileId: file.fileId };
}
