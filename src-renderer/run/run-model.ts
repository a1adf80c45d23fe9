import type { RunResult } from '../../src-main/core/api/trace-api';

// What the run tab draws, derived from openRun's answer and the row orders of its files.

export interface SampleRowRef {
  file: number;
  rowId: number;
  /** epoch seconds */
  startSec: number;
  endSec: number;
  rolloutId: unknown;
  stale: boolean;
  /** server requests joined to its generate spans */
  links: number;
}

export const keyOf = (file: number, rowId: number) => `${file}:${rowId}`;

/**
 * A sample file's rows by start: ids with their times (seconds from the file's start). The
 * app's ShownOrder is one; the headless picture makes one from the store.
 */
export interface SampleOrder {
  rowIds: ArrayLike<number>;
  startSec: ArrayLike<number>;
  endSec: ArrayLike<number>;
}

/** Where a file's rows go on the run's clock: seconds to add to the file's own. */
export function fileShiftSec(result: RunResult, file: number, zeroSec: number): number {
  return (result.files[file].file.globalStartSec ?? 0) - zeroSec;
}

/** Every sample row of the run, rollouts in time order, samples by start within each. */
export function sampleRows(
  result: RunResult,
  orders: ReadonlyMap<number, SampleOrder>,
): SampleRowRef[] {
  const stale = new Set(result.joins.stale.map((s) => keyOf(s.file, s.rowId)));
  const links = new Map<string, number>();
  for (const link of result.joins.links) {
    const key = keyOf(link.client.file, link.client.rowId);
    links.set(key, (links.get(key) ?? 0) + 1);
  }
  const rows: SampleRowRef[] = [];
  const rolloutOf = new Map(result.joins.rollouts.map((r) => [r.file, r.rolloutId]));
  result.files.forEach(({ file, role }, index) => {
    const order = orders.get(index);
    if (role !== 'samples' || !order) return;
    const origin = file.globalStartSec ?? 0;
    for (let i = 0; i < order.rowIds.length; i++) {
      const rowId = order.rowIds[i];
      rows.push({
        file: index,
        rowId,
        startSec: origin + order.startSec[i],
        endSec: origin + order.endSec[i],
        rolloutId: rolloutOf.get(index) ?? null,
        stale: stale.has(keyOf(index, rowId)),
        links: links.get(keyOf(index, rowId)) ?? 0,
      });
    }
  });
  return rows.sort((a, b) => a.startSec - b.startSec);
}

/**
 * Whether a file's times are on the epoch clock, as a run's are: not a GPU profile with a rank
 * on its own clock (no baseTimeNanoseconds: its times are the profiler's, placed by hand).
 */
export function onEpochClock(entry: RunResult['files'][number]): boolean {
  return (
    entry.role !== 'gpu' || (entry.file.gpuProfile?.ranks ?? []).every((r) => r.clock === 'epoch')
  );
}

/** The run's extent on the wall clock (epoch seconds) over all its files on that clock. */
export function runExtent(result: RunResult): { startSec: number; endSec: number } {
  let startSec = Infinity;
  let endSec = -Infinity;
  for (const entry of result.files) {
    if (!onEpochClock(entry)) continue;
    const { file } = entry;
    if (file.globalStartSec !== null) startSec = Math.min(startSec, file.globalStartSec);
    if (file.globalEndSec !== null) endSec = Math.max(endSec, file.globalEndSec);
  }
  if (!Number.isFinite(startSec)) return { startSec: 0, endSec: 1 };
  return { startSec, endSec: Math.max(endSec, startSec + 1e-6) };
}

/** Seconds as a short label: 1.23 s, 45.6 ms, 789 µs. */
export function formatSec(sec: number): string {
  const abs = Math.abs(sec);
  if (abs >= 1) return `${sec.toFixed(abs >= 100 ? 0 : 2)} s`;
  if (abs >= 1e-3) return `${(sec * 1e3).toFixed(abs >= 0.1 ? 0 : 1)} ms`;
  return `${(sec * 1e6).toFixed(0)} µs`;
}
