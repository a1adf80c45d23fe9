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
  /** one dump's progress (a 'trends-progress' event) */
  progress(id: string, progress: TrendFileProgress): void;
  /**
   * each dump's progress as main has it now (trendsNow, after a break in the event stream): the
   * dumps read meanwhile show as read, those it lists first show; none is shown twice
   */
  catchUp(id: string, progress: TrendFileProgress[]): void;
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
        t.id === id ? { ...t, files: withProgress(t.files, [progress]) } : t,
      ),
    })),
  catchUp: (id, progress) =>
    set((s) => ({
      sets: s.sets.map((t) =>
        t.id === id && t.state === 'reading' ? { ...t, files: withProgress(t.files, progress) } : t,
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

/**
 * The dumps' progress with `heard` added, one entry per dump (by path). An event and main's
 * answer to trendsNow travel apart (the stream, an HTTP answer) and either may come last, so
 * each dump keeps the furthest of what was heard: a dump read (done, cached, incomplete) stays
 * so, and one being read keeps the most bytes.
 */
export function withProgress(
  files: Readonly<Record<string, TrendFileProgress>>,
  heard: readonly TrendFileProgress[],
): Record<string, TrendFileProgress> {
  const next = { ...files };
  for (const progress of heard) {
    const known = next[progress.path];
    if (known && isFurther(known, progress)) continue;
    next[progress.path] = progress;
  }
  return next;
}

/** Whether `known` is as far as `heard` or further: a dump's reading only ever goes forward. */
function isFurther(known: TrendFileProgress, heard: TrendFileProgress): boolean {
  if (known.state !== 'reading') return true;
  return heard.state === 'reading' && heard.bytesRead <= known.bytesRead;
}
