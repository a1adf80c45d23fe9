import { create } from 'zustand';
import type { RunResult } from '../../src-main/core/api/trace-api';

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
}

/** How far a run's state is: files only ever come in or fail, so the later state has more. */
export const settledCount = (result: RunResult) => result.files.length + result.errors.length;

export const useRunStore = create<RunState>()((set) => ({
  runs: [],
  activeId: null,
  start: (id, title, paths) =>
    set((s) => ({
      runs: [...s.runs, { id, title, paths, state: 'reading', result: null, error: null }],
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
    })),
}));
