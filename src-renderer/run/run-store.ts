import { create } from 'zustand';
import type { RunResult } from '../../src-main/core/api/trace-api';

/** A run tab: one RL run's files, joined (api openRun). */
export interface RunTab {
  /** also the openId of the openRun call */
  id: string;
  title: string;
  paths: string[];
  state: 'reading' | 'ready' | 'failed';
  result: RunResult | null;
  error: string | null;
}

interface RunState {
  runs: RunTab[];
  /** the run tab shown instead of a file, or null */
  activeId: string | null;
  start(id: string, title: string, paths: string[]): void;
  finish(id: string, result: RunResult): void;
  fail(id: string, error: string): void;
  setActive(id: string | null): void;
  remove(id: string): void;
}

export const useRunStore = create<RunState>()((set) => ({
  runs: [],
  activeId: null,
  start: (id, title, paths) =>
    set((s) => ({
      runs: [...s.runs, { id, title, paths, state: 'reading', result: null, error: null }],
      activeId: id,
    })),
  finish: (id, result) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === id ? { ...r, state: 'ready', result } : r)) })),
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
