import type {
  BinnedValues,
  PerfDigest,
  PerfDistributionId,
  PerfView,
  SharedBins,
} from '../model/perf';
import { buildRunningDigest } from './running-digest';
import { binOfEach, binValues, rowsOfBin, sharedBins, type ValueBinIndex } from './value-bins';
import { valueStats } from './value-stats';
import { KeptSteps, finishSteps } from '../store/kept-steps';

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
  return finishSteps(perfDigestSteps(view));
}

/**
 * A view's digest, made on first ask and kept; the worker makes it a step at a time
 * (`warmPerfDigest`), answering the page's calls on every row between steps: made in one go,
 * it held the page's rows back by 0.75 s at 100k samples.
 */
const keptDigests = new KeptSteps((view: PerfView) => perfDigestSteps(view));

/** The view's digest: the steps not yet taken are taken now. */
export function perfDigest(view: PerfView): PerfDigest {
  return keptDigests.value(view);
}

/** The view's digest made a step at a time (the worker's warm-up), kept for `perfDigest`. */
export function warmPerfDigest(view: PerfView): Generator<void, void, void> {
  return keptDigests.warm(view);
}

/**
 * buildPerfDigest in steps of tens of milliseconds at 100k samples: each figure the view makes
 * on first read (build-perf-view.ts, build-rollout-figures.ts: a walk of every row or item
 * each) in a step of its own, then each series binned.
 */
function* perfDigestSteps(view: PerfView): Generator<void, PerfDigest, void> {
  const figures = view.rollout;
  for (const made of [
    () => figures.breakdownOwn,
    () => figures.breakdownWhole,
    () => figures.stragglers,
    () => figures.groups,
    () => view.series,
  ]) {
    void made();
    yield;
  }
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
  // made on each read (build-perf-view.ts): read once, here
  const running = buildRunningDigest(view.running);
  yield;
  const distributions = view.durations;
  yield;
  const durations = distributions.map((d) => ({ name: d.name, ...binned(d.valuesSec, null) }));
  const { groups, responseLengths, ...rollout } = figures;
  void responseLengths;
  return {
    perf: view.perf,
    series,
    running,
    durations,
    rollout: { ...rollout, groupCount: groups.length },
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
  let index = binsOfSeries.get(series);
  if (!index) {
    index = binOfEach(series.values, PERF_BINS);
    binsOfSeries.set(series, index);
  }
  return rowsOfBin(index, series.rowIds, binIndex);
}

/** Per series of a perf view, each value's bin: made at the first click on one of its bins. */
const binsOfSeries = new WeakMap<PerfView['series'][number], ValueBinIndex>();

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
