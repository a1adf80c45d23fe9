import { create } from 'zustand';
import type { OpenProgress, RunResult } from '../../src-main/core/api/trace-api';

/** A run tab: one RL run's files, joined (api openRun), growing as its files come in. */
export interface RunTab {
  /** also the openId of the openRun call */
  id: string;
  title: string;
  paths: string[];
  /** 'reading' until the first file is in; 'ready' from then on (`result.complete` says when all are) */
  state: 'reading' | 'ready' | 'failed';
  result: RunResult | null;
  error: string | null;
  /**
   * each of its files heard of while being read, by the file's own openId (main names them
   * `<run id>:<k>`): the run tab's strip and its one item in the top bar show them
   */
  reading: Readonly<Record<string, FileReading>>;
}

/** How far one file of a run is read, from its own open's progress events. */
export interface FileReading {
  bytesRead: number;
  bytesTotal: number;
}

interface RunState {
  runs: RunTab[];
  /** the run tab shown instead of a file, or null */
  activeId: string | null;
  start(id: string, title: string, paths: string[]): void;
  /** the run's state after a file came in: openRun's answer and each 'run-updated' event */
  update(id: string, result: RunResult): void;
  fail(id: string, error: string): void;
  setActive(id: string | null): void;
  remove(id: string): void;
  /** runs closed here: their files' last events (cancelled) still come, and are theirs */
  closedIds: ReadonlySet<string>;
  /** whether `openId` is the open of a file of a run here (open or closed) */
  ownsOpen(openId: string): boolean;
  /**
   * A file's progress, kept with its run when the open is one of a run's files (then true: it is
   * not an opening file of its own); false for any other open.
   */
  fileProgress(progress: OpenProgress): boolean;
}

/** The run a file's open belongs to, by main's naming (`<run id>:<k>`, api/run-opening.ts). */
export function runIdOfFileOpen(openId: string): string | null {
  const match = /^(.+):\d+$/.exec(openId);
  return match ? match[1] : null;
}

/** How far a run's state is: files only ever come in or fail, so the later state has more. */
export const settledCount = (result: RunResult) => result.files.length + result.errors.length;

export const useRunStore = create<RunState>()((set, get) => ({
  runs: [],
  activeId: null,
  closedIds: new Set(),
  start: (id, title, paths) =>
    set((s) => ({
      runs: [
        ...s.runs,
        { id, title, paths, state: 'reading', result: null, error: null, reading: {} },
      ],
      activeId: id,
    })),
  // openRun's answer and the events travel apart (an HTTP answer, an event stream): the later
  // state wins whichever arrives last
  update: (id, result) =>
    set((s) => ({
      runs: s.runs.map((r) =>
        r.id !== id ||
        (r.result !== null &&
          (settledCount(r.result) > settledCount(result) ||
            (settledCount(r.result) === settledCount(result) && r.result.complete)))
          ? r
          : { ...r, state: 'ready', result },
      ),
    })),
  fail: (id, error) =>
    set((s) => ({
      runs: s.runs.map((r) => (r.id === id ? { ...r, state: 'failed', error } : r)),
    })),
  setActive: (id) => set({ activeId: id }),
  remove: (id) =>
    set((s) => ({
      runs: s.runs.filter((r) => r.id !== id),
      activeId: s.activeId === id ? null : s.activeId,
      closedIds: new Set(s.closedIds).add(id),
    })),
  ownsOpen: (openId) => {
    const runId = runIdOfFileOpen(openId);
    if (runId === null) return false;
    const s = get();
    return s.closedIds.has(runId) || s.runs.some((r) => r.id === runId);
  },
  fileProgress: (progress) => {
    if (!get().ownsOpen(progress.openId)) return false;
    const runId = runIdOfFileOpen(progress.openId);
    const { bytesRead, bytesTotal } = progress;
    set((s) => ({
      runs: s.runs.map((r) =>
        r.id === runId
          ? { ...r, reading: { ...r.reading, [progress.openId]: { bytesRead, bytesTotal } } }
          : r,
      ),
    }));
    return true;
  },
}));
