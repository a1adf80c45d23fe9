import type { ValueBin } from '../model/perf';

/**
 * Histogram bins of a distribution, shared by the perf digest (counts), a bin click (the rows of
 * one bin) and compare's overlay: one implementation, so the bin a user clicks is the bin whose
 * rows come back.
 */

export interface Histogram {
  bins: ValueBin[];
  /** values that were not finite numbers and were left out */
  skipped: number;
  maxCount: number;
}

/** The bin edges of a distribution (empty when no value is finite). */
export function binEdges(values: ArrayLike<number>, binCount = 20): number[] {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return [];
  if (lo === hi) {
    // one value: one bin around it, so it still shows as a bar
    const pad = lo === 0 ? 0.5 : Math.abs(lo) * 0.05;
    lo -= pad;
    hi += pad;
  }
  // round edges (d3's nice and ticks): bins read "0.10-0.15 s", not "0.0973-0.1461 s"
  const [d0, d1] = niceDomain(lo, hi, binCount);
  const edges = ticks(d0, d1, binCount);
  if (edges.length < 2 || edges[0] > d0) edges.unshift(d0);
  if (edges[edges.length - 1] < d1) edges.push(d1);
  return edges;
}

/**
 * The bin of a finite value. Edges are evenly spaced: index by arithmetic, then fix float edge
 * cases by comparison. Values sit in [x0, x1); the last bin also takes its upper edge.
 */
export function binIndexOf(v: number, edges: number[]): number {
  const n = edges.length - 1;
  const width = edges[1] - edges[0];
  let b = Math.min(n - 1, Math.max(0, Math.floor((v - edges[0]) / width)));
  while (b > 0 && v < edges[b]) b--;
  while (b < n - 1 && v >= edges[b + 1]) b++;
  return b;
}

/**
 * Equal-width bins on round edges, with the count of distinct rows per bin when `rowIds` are
 * given. No spreads over the values: series can hold 100k+ requests.
 */
export function binValues(
  values: ArrayLike<number>,
  rowIds: ArrayLike<number> | null,
  binCount = 20,
): Histogram {
  let skipped = 0;
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i])) skipped++;
  const edges = binEdges(values, binCount);
  if (edges.length === 0) return { bins: [], skipped, maxCount: 0 };
  const n = edges.length - 1;
  const counts = new Array<number>(n).fill(0);
  const samples = new Array<number>(n).fill(0);
  // distinct rows per bin: one bit per (row, bin), a fraction of what a Set per bin costs
  const seen = rowIds ? new Uint8Array(((maxOf(rowIds) + 1) * n + 7) >> 3) : null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    const b = binIndexOf(v, edges);
    counts[b]++;
    if (seen && rowIds) {
      const bit = rowIds[i] * n + b;
      const mask = 1 << (bit & 7);
      if ((seen[bit >> 3] & mask) === 0) {
        seen[bit >> 3] |= mask;
        samples[b]++;
      }
    }
  }
  let maxCount = 0;
  const bins = counts.map((count, b) => {
    if (count > maxCount) maxCount = count;
    return { x0: edges[b], x1: edges[b + 1], count, samples: samples[b] };
  });
  return { bins, skipped, maxCount };
}

function maxOf(values: ArrayLike<number>): number {
  let max = -1;
  for (let i = 0; i < values.length; i++) if (values[i] > max) max = values[i];
  return max;
}

/** Distinct row ids of the values in bin `binIndex`, in first-seen order ([] past the last bin). */
export function rowsInBin(
  values: ArrayLike<number>,
  rowIds: ArrayLike<number>,
  binIndex: number,
  binCount = 20,
): number[] {
  return rowsOfBin(binOfEach(values, binCount), rowIds, binIndex);
}

/** Each value's bin (NO_BIN when not finite), and how many bins there are. */
export interface ValueBinIndex {
  bins: Uint8Array;
  binCount: number;
}

/** Marks a value that is in no bin (not finite). */
const NO_BIN = 255;

/**
 * The bin of every value, once: a bin click then reads a byte per value instead of placing
 * each value again (43,750 samples' values: 20-50 ms a click on a busy machine).
 */
export function binOfEach(values: ArrayLike<number>, binCount = 20): ValueBinIndex {
  const edges = binEdges(values, binCount);
  const n = Math.max(0, edges.length - 1);
  if (n >= NO_BIN) throw new Error(`bins: ${n} bins do not fit a byte each`);
  const bins = new Uint8Array(values.length).fill(NO_BIN);
  if (n > 0)
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (Number.isFinite(v)) bins[i] = binIndexOf(v, edges);
    }
  return { bins, binCount: n };
}

/** Distinct row ids of the values in bin `binIndex` (binOfEach's), in first-seen order. */
export function rowsOfBin(
  index: ValueBinIndex,
  rowIds: ArrayLike<number>,
  binIndex: number,
): number[] {
  if (!(binIndex >= 0 && binIndex < index.binCount)) return [];
  const { bins } = index;
  const rows: number[] = [];
  // each row once: a byte per row id when ids are a store's (0 up to about its row count),
  // else a Set
  let least = 0;
  for (let i = 0; i < rowIds.length; i++) if (rowIds[i] < least) least = rowIds[i];
  const most = maxOf(rowIds);
  if (least < 0 || most > 4 * rowIds.length + 1024 || !Number.isInteger(most)) {
    const set = new Set<number>();
    for (let i = 0; i < bins.length; i++) if (bins[i] === binIndex) set.add(rowIds[i]);
    return [...set];
  }
  const seen = new Uint8Array(most + 1);
  for (let i = 0; i < bins.length; i++) {
    if (bins[i] !== binIndex) continue;
    const row = rowIds[i];
    if (seen[row] === 1) continue;
    seen[row] = 1;
    rows.push(row);
  }
  return rows;
}

/**
 * Two distributions over the same equal-width bins (the combined range cut in `binCount`), so
 * they can be overlaid.
 */
export function sharedBins(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  binCount = 24,
): { edges: number[]; a: number[]; b: number[] } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of [a, b]) {
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (lo > hi) return { edges: [], a: [], b: [] };
  if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  const width = (hi - lo) / binCount;
  const edges = Array.from({ length: binCount + 1 }, (_, i) => lo + i * width);
  const count = (values: ArrayLike<number>) => {
    const bins = new Array<number>(binCount).fill(0);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      if (!Number.isFinite(v)) continue;
      bins[Math.min(binCount - 1, Math.floor((v - lo) / width))] += 1;
    }
    return bins;
  };
  return { edges, a: count(a), b: count(b) };
}

// d3-array's ticks and d3-scale's linear nice (ISC, Mike Bostock), as @visx/scale applied them
// in the renderer before the binning moved here; core takes no UI package.
const E10 = Math.sqrt(50);
const E5 = Math.sqrt(10);
const E2 = Math.sqrt(2);

function tickIncrement(start: number, stop: number, count: number): number {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log(step) / Math.LN10);
  const error = step / Math.pow(10, power);
  const factor = error >= E10 ? 10 : error >= E5 ? 5 : error >= E2 ? 2 : 1;
  return power >= 0 ? factor * Math.pow(10, power) : -Math.pow(10, -power) / factor;
}

function ticks(start: number, stop: number, count: number): number[] {
  if (start === stop && count > 0) return [start];
  const step = tickIncrement(start, stop, count);
  if (step === 0 || !Number.isFinite(step)) return [];
  const out: number[] = [];
  if (step > 0) {
    let r0 = Math.round(start / step);
    let r1 = Math.round(stop / step);
    if (r0 * step < start) ++r0;
    if (r1 * step > stop) --r1;
    for (let i = 0; i < r1 - r0 + 1; i++) out.push((r0 + i) * step);
  } else {
    const inv = -step;
    let r0 = Math.round(start * inv);
    let r1 = Math.round(stop * inv);
    if (r0 / inv < start) ++r0;
    if (r1 / inv > stop) --r1;
    for (let i = 0; i < r1 - r0 + 1; i++) out.push((r0 + i) / inv);
  }
  return out;
}

function niceDomain(lo: number, hi: number, count: number): [number, number] {
  let start = lo;
  let stop = hi;
  let prestep: number | undefined;
  for (let iter = 0; iter < 10; iter++) {
    const step = tickIncrement(start, stop, count);
    if (step === prestep) return [start, stop];
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else if (step < 0) {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    } else break;
    prestep = step;
  }
  // like d3: a domain that did not settle in 10 rounds is left as it is
  return [lo, hi];
}
