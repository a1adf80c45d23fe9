import type {
  BinnedValues,
  PerfDigest,
  PerfDistributionId,
  PerfView,
  SharedBins,
} from '../model/perf';
import type { GroupFigures } from '../model/rollout-figures';
import { buildRunningDigest } from './running-digest';
import { binValues, rowsInBin, sharedBins } from './value-bins';
import { valueStats } from './value-stats';

/** Bins per histogram in the perf view (the renderer drew 20 before the binning moved here). */
export const PERF_BINS = 20;
/** Bins of compare's overlaid distributions. */
export const SHARED_BINS = 24;

/**
 * What the perf view shows, from the whole PerfView that stays in the worker: per series and per
 * span name its count, stats and bins; the running curve reduced; the rollout's figures without
 * its per-group and per-row lists. Its size does not grow with the rows.
 */
export function buildPerfDigest(view: PerfView): PerfDigest {
  const steps = perfDigestSteps(view);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The digest a distribution per step (tens of milliseconds each at 100k rows), so the worker
 * can build it while idle after opening and answer calls in between.
 */
export function* perfDigestSteps(view: PerfView): Generator<void, PerfDigest, void> {
  const { groups, responseLengths, ...rollout } = view.rollout;
  void responseLengths;
  const series: PerfDigest['series'] = [];
  for (const s of view.series) {
    series.push({
      key: s.key,
      unit: s.unit,
      spanNames: s.spanNames,
      ...binned(s.values, s.rowIds),
    });
    yield;
  }
  const durations: PerfDigest['durations'] = [];
  for (const d of view.durations) {
    durations.push({ name: d.name, ...binned(d.valuesSec, null) });
    yield;
  }
  return {
    perf: view.perf,
    series,
    running: buildRunningDigest(view.running),
    durations,
    rollout: { ...rollout, groupCount: groups.length },
  };
}

/** A digest built on demand or a step at a time, whichever comes first; built once. */
export interface LazyPerfDigest {
  /** the digest, finishing whatever steps are left */
  get(): PerfDigest;
  /** one step; true once the digest is whole */
  step(): boolean;
}

export function lazyPerfDigest(view: PerfView): LazyPerfDigest {
  const steps = perfDigestSteps(view);
  let digest: PerfDigest | null = null;
  const step = (): boolean => {
    if (digest) return true;
    const next = steps.next();
    if (next.done) digest = next.value;
    return digest !== null;
  };
  return {
    get() {
      while (!step());
      return digest!;
    },
    step,
  };
}

function binned(values: ArrayLike<number>, rowIds: ArrayLike<number> | null): BinnedValues {
  const histogram = binValues(values, rowIds, PERF_BINS);
  return { valueCount: values.length, stats: valueStats(values), ...histogram };
}

/**
 * The distinct rows whose values fall in one bin of a series' histogram (a bin click); null when
 * the file has no such series.
 */
export function perfBinRows(view: PerfView, seriesKey: string, binIndex: number): number[] | null {
  const series = view.series.find((s) => s.key === seriesKey);
  if (!series) return null;
  return rowsInBin(series.values, series.rowIds, binIndex, PERF_BINS);
}

/** Every value of one distribution (what compare overlays), or null when the file has none. */
export function perfValues(view: PerfView, id: PerfDistributionId): Float64Array | null {
  if (id.kind === 'duration')
    return view.durations.find((d) => d.name === id.name)?.valuesSec ?? null;
  return view.series.find((s) => s.key === id.name)?.values ?? null;
}

/** Two files' values of one distribution on shared bins, with counts and means for the legend. */
export function buildSharedBins(a: ArrayLike<number>, b: ArrayLike<number>): SharedBins {
  return {
    ...sharedBins(a, b, SHARED_BINS),
    countA: a.length,
    countB: b.length,
    meanA: meanOf(a),
    meanB: meanOf(b),
  };
}

function meanOf(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return values.length === 0 ? NaN : sum / values.length;
}

/** The rollout's GRPO groups (GroupsView), kept out of the digest: 12.5k of them at 100k rows. */
export function perfGroups(view: PerfView): GroupFigures[] {
  return view.rollout.groups;
}
