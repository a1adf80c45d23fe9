import { create } from 'zustand';
import type { FileError, FileSummary, OpenProgress } from '../../src-main/core/api/trace-api';

export interface OpeningFile {
  openId: string;
  name: string;
  bytesRead: number;
  bytesTotal: number;
  samplesRead: number;
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
      const known = s.opening.some((o) => o.openId === p.openId);
      // opens that main started (files named at start-up, a folder's other traces) show too
      if (!known && (p.phase === 'reading' || p.phase === 'building')) {
        const started = {
          openId: p.openId,
          name: p.name,
          bytesRead: p.bytesRead,
          bytesTotal: p.bytesTotal,
          samplesRead: p.samplesRead,
        };
        return { opening: [...s.opening, started] };
      }
      if (!known) return s;
      if (p.phase === 'done' || p.phase === 'failed' || p.phase === 'cancelled') {
        return { opening: s.opening.filter((o) => o.openId !== p.openId) };
      }
      return {
        opening: s.opening.map((o) =>
          o.openId === p.openId
            ? {
                ...o,
                stage: 'reading' as const,
                bytesRead: p.bytesRead,
                bytesTotal: Math.max(p.bytesTotal, o.bytesTotal),
                samplesRead: p.samplesRead,
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
    set((s) => ({ opening: s.opening.filter((o) => o.openId !== openId) })),
  addError: (error) => set((s) => ({ errors: [...s.errors, error] })),
  dismissError: (index) => set((s) => ({ errors: s.errors.filter((_, i) => i !== index) })),
}));
