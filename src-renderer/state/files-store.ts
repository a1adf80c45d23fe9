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
  /** what samplesRead counts in the format's words ('samples', 'spans'), when the format says */
  counted?: string;
  /** the tab its rows show in while it is read (previews), if any yet */
  fileId?: string;
  /**
   * a picked file without a path goes to main first: 'preparing' (encoding it for the open
   * call: Electron's drop from a virtual source) or 'uploading' (serve mode: its raw bytes on
   * the wire), then 'reading' (main reads it; progress events from then on)
   */
  stage?: 'preparing' | 'uploading' | 'reading';
  /** set when Cancel is pressed before main knows of the open */
  cancelled?: boolean;
  /**
   * started by main (a file named at start-up, a folder's other traces), not by a call of this
   * page: only main's events, or asking main (`settleOpens`), can end it
   */
  startedByMain?: boolean;
}

export interface FilesState {
  files: FileSummary[];
  activeFileId: string | null;
  /** second file of a side-by-side comparison with the active one */
  compareFileId: string | null;
  opening: OpeningFile[];
  /** opens that are over: a late event or listing of one never shows it again */
  ended: ReadonlySet<string>;
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
  /**
   * What main said when asked (openingNow, then listFiles), after events may have been lost:
   * each open main started that the page knew of before asking (`askedAbout`) and main no
   * longer lists is over, its tab the whole file when main lists that, else gone; the listed
   * opens show. The page's own opens end with their call's answer, whatever main lists.
   */
  settleOpens(askedAbout: ReadonlySet<string>, listed: OpenProgress[], files: FileSummary[]): void;
  /** bytes prepared or sent so far, before main reads the file */
  sendProgress(openId: string, stage: 'preparing' | 'uploading', done: number): void;
  cancelLocal(openId: string): void;
  /**
   * Opens shown elsewhere from now on (a run's files: its tab's strip and its one top-bar
   * item): their opening tabs go, and later events of them are not this store's.
   */
  handOver(isTaken: (openId: string) => boolean): void;
  addError(error: FileError): void;
  dismissError(index: number): void;
}

/** Open files, files being opened and open errors: the frame's state, no view state. */
export const useFilesStore = create<FilesState>()((set) => ({
  files: [],
  activeFileId: null,
  compareFileId: null,
  opening: [],
  ended: new Set(),
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
  progress: (p) => set((s) => withProgress(s, p)),
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
  handOver: (isTaken) =>
    set((s) => {
      const taken = s.opening.filter((o) => isTaken(o.openId));
      if (taken.length === 0) return {};
      const ended = new Set(s.ended);
      for (const o of taken) ended.add(o.openId);
      return { opening: s.opening.filter((o) => !isTaken(o.openId)), ended };
    }),
  // the open's call answered: a file shown while it was read but never opened whole (failed,
  // cancelled) goes; one opened whole has its summary from the answer already
  finishOpening: (openId) =>
    set((s) => withOpenOver(s, openId, (shown) => (shown.streaming ? null : shown))),
  settleOpens: (askedAbout, listed, files) =>
    set((s) => {
      const listedIds = new Set(listed.map((p) => p.openId));
      let next: FilesState = s;
      for (const { openId, startedByMain } of s.opening) {
        if (!startedByMain || !askedAbout.has(openId) || listedIds.has(openId)) continue;
        // over while the page did not hear: opened whole if main lists the file, else not
        const over = withOpenOver(next, openId, (shown) => {
          const whole = files.find((f) => f.fileId === shown.fileId);
          return whole ?? (shown.streaming ? null : shown);
        });
        next = { ...next, ...over };
      }
      for (const progress of listed) next = { ...next, ...withProgress(next, progress) };
      return next;
    }),
  addError: (error) => set((s) => ({ errors: [...s.errors, error] })),
  dismissError: (index) => set((s) => ({ errors: s.errors.filter((_, i) => i !== index) })),
}));

/** An open's progress: its tab shows, follows the reading and goes when the open is over. */
function withProgress(s: FilesState, p: OpenProgress): Partial<FilesState> {
  // a late event (or listing) of an open that is over would show it again, for good
  if (s.ended.has(p.openId)) return {};
  const known = s.opening.some((o) => o.openId === p.openId);
  if (openEnded(p)) {
    if (!known) return { ended: new Set(s.ended).add(p.openId) };
    // a file shown while it was read, then not opened after all: its tab goes
    return withOpenOver(s, p.openId, (shown) => (p.phase === 'done' ? shown : null));
  }
  // the rows read so far of a file still being read: its tab shows them, growing
  const preview = p.file ? withPreview(s, p.file) : {};
  // opens that main started (files named at start-up, a folder's other traces) show too
  if (!known) {
    const started: OpeningFile = {
      openId: p.openId,
      name: p.name,
      bytesRead: p.bytesRead,
      bytesTotal: p.bytesTotal,
      samplesRead: p.samplesRead,
      counted: p.counted,
      fileId: p.file?.fileId,
      startedByMain: true,
    };
    return { ...preview, opening: [...s.opening, started] };
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
            counted: p.counted,
            fileId: p.file?.fileId ?? o.fileId,
          }
        : o,
    ),
  };
}

/**
 * An open that is over: its opening tab goes and it is remembered as over; the tab of its
 * rows (if shown) becomes `fileAfter(it)`, or goes when that is null.
 */
function withOpenOver(
  s: FilesState,
  openId: string,
  fileAfter: (shown: FileSummary) => FileSummary | null,
): Partial<FilesState> {
  const ended = new Set(s.ended).add(openId);
  const shownId = s.opening.find((o) => o.openId === openId)?.fileId;
  const opening = s.opening.filter((o) => o.openId !== openId);
  const shown = s.files.find((f) => f.fileId === shownId);
  if (!shown) return { opening, ended };
  const after = fileAfter(shown);
  if (after) return { opening, ended, files: s.files.map((f) => (f === shown ? after : f)) };
  const files = s.files.filter((f) => f !== shown);
  const activeFileId =
    s.activeFileId === shown.fileId ? (files[files.length - 1]?.fileId ?? null) : s.activeFileId;
  return { opening, ended, files, activeFileId };
}

/** A preview replaces its file's summary; the first one adds the tab and shows it. */
function withPreview(s: FilesState, file: FileSummary): Partial<FilesState> {
  if (s.files.some((f) => f.fileId === file.fileId)) {
    return { files: s.files.map((f) => (f.fileId === file.fileId ? file : f)) };
  }
  return { files: [...s.files, file], activeFileId: file.fileId };
}
