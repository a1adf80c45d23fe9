import { create } from 'zustand';
import type { TrendFileProgress, TrendsResult } from '../../src-main/core/model/trend';

/** A trends tab: a run's rollout dumps, one point per dump. */
export interface TrendSet {
  /** also the openId of the call that reads it (Cancel) */
  id: string;
  title: string;
  paths: string[];
  state: 'reading' | 'ready' | 'failed' | 'cancelled';
  /** per-file progress while reading */
  files: Record<string, TrendFileProgress>;
  result: TrendsResult | null;
  error: string | null;
}

export interface TrendsState {
  sets: TrendSet[];
  /** the trends tab shown instead of a file, or null */
  activeId: string | null;
  start(id: string, title: string, paths: string[]): void;
  progress(id: string, progress: TrendFileProgress): void;
  finish(id: string, result: TrendsResult): void;
  fail(id: string, error: string, cancelled: boolean): void;
  setActive(id: string | null): void;
  remove(id: string): void;
}

export const useTrendsStore = create<TrendsState>()((set) => ({
  sets: [],
  activeId: null,
  start: (id, title, paths) =>
    set((s) => ({
      sets: [
        ...s.sets,
        { id, title, paths, state: 'reading', files: {}, result: null, error: null },
      ],
      activeId: id,
    })),
  progress: (id, progress) =>
    set((s) => ({
      sets: s.sets.map((t) =>
        t.id === id ? { ...t, files: { ...t.files, [progress.path]: progress } } : t,
      ),
    })),
  finish: (id, result) =>
    set((s) => ({
      sets: s.sets.map((t) => (t.id === id ? { ...t, state: 'ready', result } : t)),
    })),
  fail: (id, error, cancelled) =>
    set((s) => ({
      sets: s.sets.map((t) =>
        t.id === id ? { ...t, state: cancelled ? 'cancelled' : 'failed', error } : t,
      ),
    })),
  setActive: (id) => set({ activeId: id }),
  remove: (id) =>
    set((s) => ({
      sets: s.sets.filter((t) => t.id !== id),
      activeId: s.activeId === id ? null : s.activeId,
    })),
}));
