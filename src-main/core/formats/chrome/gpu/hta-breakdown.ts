import type {
  KernelKind,
  KernelTypeTime,
  TemporalBreakdown,
  Utilisation,
} from '../../../model/gpu-profile';

/** A GPU event as the figures see it: microseconds, end >= start. */
export interface KernelSpan {
  startUs: number;
  endUs: number;
  kind: KernelKind;
}

/** [start, end] pairs, flat: start0, end0, start1, end1, ... */
export type Intervals = Float64Array;

/**
 * The union of intervals, in time order, as HTA's merge_kernel_intervals makes it: an interval
 * that starts at or before the latest end so far joins the current one.
 */
export function mergeIntervals(spans: readonly { startUs: number; endUs: number }[]): Intervals {
  // kernels come in start order (rankFigures sorts them once): no sort of each kind's again
  const order = inStartOrder(spans)
    ? null
    : spans.map((_, i) => i).sort((a, b) => spans[a].startUs - spans[b].startUs);
  const out: number[] = [];
  for (let k = 0; k < spans.length; k++) {
    const { startUs, endUs } = spans[order === null ? k : order[k]];
    const last = out.length - 1;
    if (last > 0 && startUs <= out[last]) out[last] = Math.max(out[last], endUs);
    else out.push(startUs, endUs);
  }
  return Float64Array.from(out);
}

function inStartOrder(spans: readonly { startUs: number }[]): boolean {
  for (let k = 1; k < spans.length; k++) if (spans[k - 1].startUs > spans[k].startUs) return false;
  return true;
}

function lengthOf(merged: Intervals): number {
  let sum = 0;
  for (let i = 0; i < merged.length; i += 2) sum += merged[i + 1] - merged[i];
  return sum;
}

const pct = (part: number, whole: number) =>
  whole > 0 ? Math.round((10000 * part) / whole) / 100 : 0;

/**
 * HTA's temporal breakdown (BreakdownAnalysis.get_temporal_breakdown): kernel time runs from
 * the first kernel's start to the last one's end; idle is the part where no kernel runs on any
 * stream; compute is the union of computation kernels; non-compute is the rest. Percentages
 * are of kernel time, rounded to 2 decimals as HTA rounds them.
 */
export function temporalBreakdown(kernels: readonly KernelSpan[]): TemporalBreakdown {
  const all = mergeIntervals(kernels);
  if (all.length === 0) {
    return {
      kernelUs: 0,
      idleUs: 0,
      computeUs: 0,
      nonComputeUs: 0,
      idlePct: 0,
      computePct: 0,
      nonComputePct: 0,
    };
  }
  const kernelUs = all[all.length - 1] - all[0];
  const idleUs = kernelUs - lengthOf(all);
  const computeUs = lengthOf(mergeIntervals(kernels.filter((k) => k.kind === 'computation')));
  const nonComputeUs = kernelUs - computeUs - idleUs;
  return {
    kernelUs,
    idleUs,
    computeUs,
    nonComputeUs,
    idlePct: pct(idleUs, kernelUs),
    computePct: pct(computeUs, kernelUs),
    nonComputePct: pct(nonComputeUs, kernelUs),
  };
}

/** Steps of kinds' unions: at time t[i] the running mask changes by d[i]. */
interface KindSteps {
  t: Float64Array;
  d: Int32Array;
}

/**
 * Each kind's union, as +bit at a start and -bit at an end, in time order (a tie: the kinds in
 * the order `bits` names them, each kind's steps in their own order, as a stable sort of them
 * all gives). The unions are in time order each, so they are merged, not sorted: an object per
 * step and a sort with a comparator were a twentieth of a GPU rank's figures.
 */
function kindSteps(
  kernels: readonly KernelSpan[],
  bits: Partial<Record<KernelKind, number>>,
): KindSteps {
  const lists = (Object.entries(bits) as [KernelKind, number][]).map(([kind, bit]) => ({
    merged: mergeIntervals(kernels.filter((k) => k.kind === kind)),
    bit,
    at: 0,
  }));
  let n = 0;
  for (const list of lists) n += list.merged.length;
  const t = new Float64Array(n);
  const d = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    // the list whose next step is earliest, the first named on a tie
    let best = -1;
    for (let k = 0; k < lists.length; k++) {
      const { merged, at } = lists[k];
      if (at < merged.length && (best < 0 || merged[at] < lists[best].merged[lists[best].at]))
        best = k;
    }
    const list = lists[best];
    t[i] = list.merged[list.at];
    // a union's even places are starts, odd ones ends
    d[i] = list.at % 2 === 0 ? list.bit : -list.bit;
    list.at++;
  }
  return { t, d };
}

/**
 * HTA's communication-computation overlap (CommunicationAnalysis.get_comm_comp_overlap): the
 * time both a communication and a computation kernel run, over the union of communication
 * kernels, in percent (2 decimals); null without communication.
 */
export function commCompOverlapPct(kernels: readonly KernelSpan[]): number | null {
  const { t, d } = kindSteps(kernels, { communication: 1, computation: 2 });
  let running = 0;
  let both = 0;
  let comm = 0;
  for (let i = 0; i < t.length; i++) {
    running += d[i];
    const next = i + 1 < t.length ? t[i + 1] : t[i];
    if (running === 3) both += next - t[i];
    if (running & 1) comm += next - t[i];
  }
  return comm > 0 ? pct(both, comm) : null;
}

/** HTA's kinds in its order (bits 1, 2, 4) and its names for them. */
const TYPE_ORDER: readonly KernelKind[] = ['computation', 'communication', 'memory'];

/**
 * HTA's kernel-type breakdown (BreakdownAnalysis._get_gpu_kernel_type_time): the time each
 * set of kinds runs together ("COMPUTATION overlapping COMMUNICATION"), every stretch cut to
 * whole microseconds as HTA's `astype(int)` does; percentages of the sum, largest first.
 */
export function kernelTypeTimes(kernels: readonly KernelSpan[]): KernelTypeTime[] {
  const { t, d } = kindSteps(kernels, { computation: 1, communication: 2, memory: 4 });
  const byMask = new Map<number, number>();
  let running = 0;
  for (let i = 0; i + 1 < t.length; i++) {
    running += d[i];
    if (running > 0) {
      byMask.set(running, (byMask.get(running) ?? 0) + Math.trunc(t[i + 1] - t[i]));
    }
  }
  return typeTimesOf(byMask);
}

/** Several ranks' kernel-type times summed (HTA's "across all ranks"), percentages redone. */
export function sumKernelTypeTimes(lists: readonly KernelTypeTime[][]): KernelTypeTime[] {
  const byMask = new Map<number, number>();
  for (const list of lists) {
    for (const t of list) {
      const mask = t.kinds.reduce((m, k) => m | (1 << TYPE_ORDER.indexOf(k)), 0);
      byMask.set(mask, (byMask.get(mask) ?? 0) + t.us);
    }
  }
  return typeTimesOf(byMask);
}

function typeTimesOf(byMask: Map<number, number>): KernelTypeTime[] {
  let total = 0;
  for (const us of byMask.values()) total += us;
  return [...byMask]
    .map(([mask, us]) => {
      const kinds = TYPE_ORDER.filter((_, bit) => mask & (1 << bit));
      return {
        kinds,
        label: kinds.map((k) => k.toUpperCase()).join(' overlapping '),
        us,
        // HTA rounds these to one decimal
        pct: total > 0 ? Math.round((1000 * us) / total) / 10 : 0,
      };
    })
    .sort((a, b) => b.us - a.us || (a.label < b.label ? -1 : 1));
}

/**
 * Share of each of `bins` equal stretches from the first kernel's start to the last one's end
 * during which some kernel runs: one pass over the union.
 */
export function utilisation(merged: Intervals, bins: number, offsetUs: number): Utilisation {
  if (merged.length === 0) return { firstSec: 0, binSec: 0, busy: [] };
  const first = merged[0];
  const span = merged[merged.length - 1] - first;
  const binUs = span > 0 ? span / bins : 1;
  const busy = new Array<number>(span > 0 ? bins : 1).fill(0);
  const last = busy.length - 1;
  for (let i = 0; i < merged.length; i += 2) {
    const s = merged[i] - first;
    const e = merged[i + 1] - first;
    const from = Math.min(last, Math.floor(s / binUs));
    const to = Math.min(last, Math.floor(e / binUs));
    for (let b = from; b <= to; b++) {
      const binStart = b * binUs;
      const binEnd = b === last ? Infinity : binStart + binUs;
      const part = Math.min(e, binEnd) - Math.max(s, binStart);
      if (part > 0) busy[b] += part;
    }
  }
  return {
    firstSec: (first + offsetUs) / 1e6,
    binSec: binUs / 1e6,
    busy: busy.map((us) => Math.min(1, us / binUs)),
  };
}
