import { spanNamePattern } from '../model/span-name-pattern';
import { minOf } from '../model/extent';
import { PackedItemCursor } from '../rows/packed-items';
import type { Distribution, PerfView, RunningCurve } from '../model/perf';
import type { PackedRow, RowFields } from '../model/row';
import { perfSeries } from '../rows/perf-summary';
import type { AttrValue } from '../model/row';
import type { SampleFacts } from '../model/sample-facts';
import { buildRolloutFigures } from './build-rollout-figures';
import { keptOnFirstRead } from './kept-on-first-read';

/**
 * The perf view of one file: the format's perf keys (slime's, computed from the samples' raw
 * trace events before those are dropped: see formats/slime/descriptor.ts), per-request series
 * where the format has them (capabilities.perfSeries), stragglers, durations.
 */
export function buildPerfView(
  withSeries: boolean,
  rows: PackedRow[],
  perfSummary: Record<string, number>,
  facts: readonly (SampleFacts | null)[] = [],
  rolloutId: AttrValue = null,
): PerfView {
  const rollout = buildRolloutFigures(rows, facts, rolloutId);
  const view = { perf: perfSummary, rollout } as PerfView;
  // Series, the running curve and durations walk every item again (about 0.5 s at 100k rows):
  // made on first read, so the headless commands that never read them (summary, rows, export)
  // never pay for them. The summary needs only the perf keys and the rollout figures.
  keptOnFirstRead(view, 'series', () => (withSeries ? perfSeries(rows) : []));
  // the running curve is read once, for the perf digest (getPerf): 200k steps as objects at
  // 100k rows (13 MB) are made then and let go, not kept beside the rows
  madeOnEachRead(view, 'running', () => {
    const globalStart = rows.length > 0 ? minOf(rows, (row) => row.start) : 0;
    const resumedAt = new Map(
      rollout.resumed.map((r) => [r.rowId, r.resumeStartSec + globalStart]),
    );
    // over the rollout's own window: a resumed sample runs from its resume, not an hour earlier
    return buildRunningCurve(rows, (row) => resumedAt.get(row.row_id) ?? row.start);
  });
  keptOnFirstRead(view, 'durations', () => buildDurations(rows));
  return view;
}

/** `object[key]` made by `make` each time it is read (enumerable, like keptOnFirstRead). */
function madeOnEachRead<T extends object, K extends keyof T>(
  object: T,
  key: K,
  make: () => T[K],
): void {
  Object.defineProperty(object, key, { configurable: true, enumerable: true, get: make });
}

/**
 * Samples running over time as a step function, relative to the earliest start: the long tail
 * at the end of a rollout is where stragglers live. `startOf` says when a row starts running
 * (a resumed sample: at its resume in this rollout).
 */
export function buildRunningCurve<R extends RowFields>(
  rows: readonly R[],
  startOf: (row: R) => number = (row) => row.start,
): RunningCurve {
  if (rows.length === 0) return { tSec: new Float64Array(0), running: new Int32Array(0) };
  const n = rows.length;
  const globalStart = minOf(rows, startOf);
  // starts and ends sorted apart (typed arrays, no comparator: an object per edge and a
  // comparator sort took a fifth of the perf view at 100k rows), then merged
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    starts[r] = startOf(rows[r]) - globalStart;
    ends[r] = rows[r].end - globalStart;
  }
  starts.sort();
  ends.sort();
  // at most a step per start and per end
  const tSec = new Float64Array(2 * n);
  const counts = new Int32Array(2 * n);
  let steps = 0;
  let running = 0;
  const step = (t: number, delta: number) => {
    running += delta;
    if (steps > 0 && tSec[steps - 1] === t) counts[steps - 1] = running;
    else {
      tSec[steps] = t;
      counts[steps++] = running;
    }
  };
  let s = 0;
  let e = 0;
  while (s < n || e < n) {
    // ends before starts at the same instant, so a zero-length row never counts as running
    if (e < n && (s >= n || ends[e] <= starts[s])) step(ends[e++], -1);
    else step(starts[s++], 1);
  }
  return { tSec: tSec.slice(0, steps), running: counts.slice(0, steps) };
}

/**
 * Durations of closed spans per span name with its ids folded (`decode Req *`: one line for
 * SGLang's thousand request roots, not one per request), most frequent first.
 */
export function buildDurations(rows: PackedRow[]): Distribution[] {
  // counted first, then written into arrays of their size: growing a list per name and then
  // copying it held 2.5 times the values at once (3M spans at 100k samples: about 60 MB at
  // the moment the open's memory peaks), for one more walk of the items (a twentieth of a second)
  const patterns = new Map<string, string>();
  const patternOf = (name: string): string => {
    let pattern = patterns.get(name);
    if (pattern === undefined) patterns.set(name, (pattern = spanNamePattern(name)));
    return pattern;
  };
  const counts = new Map<string, number>();
  const item = new PackedItemCursor();
  for (const row of rows) {
    item.reset(row.packed);
    while (item.next()) {
      if (item.state !== 'closed_span') continue;
      const pattern = patternOf(item.name);
      counts.set(pattern, (counts.get(pattern) ?? 0) + 1);
    }
  }
  const byName = new Map<string, { values: Float64Array; n: number }>();
  for (const [name, count] of counts) byName.set(name, { values: new Float64Array(count), n: 0 });
  for (const row of rows) {
    item.reset(row.packed);
    while (item.next()) {
      if (item.state !== 'closed_span') continue;
      const list = byName.get(patternOf(item.name))!;
      list.values[list.n++] = item.endTs - item.start;
    }
  }
  return [...byName.entries()]
    .sort((a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]))
    .map(([name, { values }]) => ({ name, valuesSec: values }));
}
