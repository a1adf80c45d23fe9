import type { GpuRank, IdleGap, KernelKind, KernelTotal } from '../../../model/gpu-profile';
import type { ChromeSlice, ChromeThread, ChromeTrace } from '../chrome-trace';
import { kernelKind } from './kernel-kind';
import {
  commCompOverlapPct,
  kernelTypeTimes,
  mergeIntervals,
  temporalBreakdown,
  utilisation,
  type KernelSpan,
} from './hta-breakdown';

/** How many idle gaps, top kernels and utilisation bins a rank keeps. */
const GAPS = 10;
const TOP_KERNELS = 10;
const UTILISATION_BINS = 200;

/** A kernel (or memcpy, memset) as read: its slice, kind, stream and correlation id. */
export interface GpuEvent extends KernelSpan {
  slice: ChromeSlice;
  name: string;
  stream: number;
  correlation: number | null;
}

/**
 * What the figures need of a rank's slices, found in one pass: its GPU events, by correlation id
 * the runtime call of each launch (and its thread's name), its ProfilerStep slices and the CPU's
 * correlation ids with their starts. Not a list of every CPU slice nor a map of each one's thread
 * (a 30 MB rank's 75k CPU slices: that map was the costliest line of this pass, and only
 * launches are ever asked for).
 */
export interface RankEvents {
  kernels: GpuEvent[];
  launches: Map<number, ChromeSlice>;
  /**
   * The threads that launch, with their names as the file names them: an idle gap's cause says
   * its launch's (found there for the few gaps shown: a map of every launch to its thread was a
   * fiftieth of a rank's open)
   */
  launchThreads: { thread: ChromeThread; name: string }[];
  /** the threads that hold GPU events (a rank's streams) */
  gpuThreads: Set<ChromeThread>;
  /** the CPU's ProfilerStep#N slices */
  steps: ChromeSlice[];
  /** every CPU slice's correlation id, and its start, in the same order */
  correlationIds: number[];
  correlationStarts: number[];
}

const numberOr = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/**
 * GPU work's categories in Kineto (ActivityType names: `kernel`, `gpu_memcpy`, `gpu_memset`;
 * PyTorch 1.8-era traces wrote `Kernel`, `Memcpy`, `Memset`), for GPU events without a `stream`
 * arg: older ROCm Kineto (roctracer) wrote none, its GPU events' tid being the queue.
 */
const GPU_WORK_CATEGORIES = new Set([
  'kernel',
  'gpu_memcpy',
  'gpu_memset',
  'Kernel',
  'Memcpy',
  'Memset',
]);

/** The stream of a GPU event written without one: its thread's id (roctracer's queue). */
function streamOfThread(tid: ChromeThread['tid']): number {
  if (typeof tid === 'number') return tid;
  const digits = /\d+/.exec(tid);
  return digits === null ? 0 : Number(digits[0]);
}

/**
 * A rank's events as HTA sees them: a GPU event is one with a `stream` arg (Kineto's kernel,
 * gpu_memcpy, gpu_memset; GPU user annotations are ranges, not work, and are left out), or,
 * when a trace writes no stream at all on its GPU work (older ROCm Kineto through roctracer),
 * one of GPU work's categories, its stream its thread; every other slice is the CPU's. HTA
 * itself finds no GPU work in such a trace; rocprof counts it, and so does this.
 */
export function rankEvents(trace: ChromeTrace): RankEvents {
  const events: RankEvents = {
    kernels: [],
    launches: new Map(),
    launchThreads: [],
    gpuThreads: new Set(),
    steps: [],
    correlationIds: [],
    correlationStarts: [],
  };
  const { kernels, launches, launchThreads, steps, correlationIds, correlationStarts } = events;
  let fractional = false;
  const kinds = new KindCache();
  const { argsColumns } = trace;
  for (const process of trace.processes.values()) {
    for (const thread of process.threads) {
      const threadName = thread.name ?? `thread ${String(thread.tid)}`;
      const slices = thread.slices;
      for (let i = 0; i < slices.length; i++) {
        const slice = slices[i];
        let stream = numberOr(argsColumns.valueOf(slice.args, 'stream'));
        if (stream === null && slice.cat !== null && GPU_WORK_CATEGORIES.has(slice.cat))
          stream = streamOfThread(thread.tid);
        const correlation = numberOr(argsColumns.valueOf(slice.args, 'correlation'));
        if (stream !== null) {
          if (slice.cat === 'gpu_user_annotation') continue;
          events.gpuThreads.add(thread);
          if (!Number.isInteger(slice.startUs)) fractional = true;
          kernels.push({
            slice,
            name: slice.name,
            kind: kinds.of(slice.name, slice.cat),
            stream,
            correlation,
            startUs: slice.startUs,
            endUs: slice.endUs ?? slice.startUs,
          });
          continue;
        }
        if (!Number.isInteger(slice.startUs)) fractional = true;
        if (slice.name.startsWith('ProfilerStep')) steps.push(slice);
        if (correlation === null) continue;
        correlationIds.push(correlation);
        correlationStarts.push(slice.startUs);
        // the runtime call (cudaLaunchKernel, cudaMemcpyAsync, hipLaunchKernel) of a launch
        if (slice.cat !== 'cpu_op') {
          launches.set(correlation, slice);
          if (launchThreads[launchThreads.length - 1]?.thread !== thread)
            launchThreads.push({ thread, name: threadName });
        }
      }
    }
  }
  if (fractional) roundNsResolution(kernels);
  return events;
}

/**
 * Each (name, category)'s kernel kind, found once: a rank's kernels repeat a few hundred names,
 * and two regular expressions per kernel were a fiftieth of its open.
 */
class KindCache {
  private readonly byCat = new Map<string | null, Map<string, KernelKind>>();

  of(name: string, cat: string | null): KernelKind {
    let byName = this.byCat.get(cat);
    if (byName === undefined) this.byCat.set(cat, (byName = new Map()));
    let kind = byName.get(name);
    if (kind === undefined) byName.set(name, (kind = kernelKind(name, cat)));
    return kind;
  }
}

/**
 * A trace at ns resolution (PyTorch >= 2.3 writes us with three decimals) has kernels that
 * touch or overlap by a fraction of a microsecond; HTA rounds each kernel inward to whole
 * microseconds (start up, end down: trace_parser.py, pytorch/pytorch#122425) whenever a
 * timestamp is fractional (a kernel's or a CPU slice's start), and so do the figures here, to
 * give HTA's numbers. The timeline keeps the exact times. A kernel shorter than its rounding
 * keeps no time, never a negative one.
 */
function roundNsResolution(kernels: GpuEvent[]): void {
  for (const k of kernels) {
    k.startUs = Math.ceil(k.startUs);
    k.endUs = Math.max(k.startUs, Math.floor(k.endUs));
  }
}

/**
 * HTA drops the GPU work of the last profiler step, which is cut off when profiling stops
 * (Trace._filter_irrelevant_gpu_kernels): with two or more ProfilerStep#N, only kernels whose
 * launch (by correlation id) began before the last step began are counted. Returns the kept
 * kernels and whether the rule applied.
 */
export function withoutLastStep(events: RankEvents): { kept: GpuEvent[]; dropped: number } {
  const { steps, correlationIds, correlationStarts } = events;
  if (new Set(steps.map((s) => s.name)).size < 2) return { kept: events.kernels, dropped: 0 };
  let lastStart = -Infinity;
  for (const s of steps) lastStart = Math.max(lastStart, s.startUs);
  const launched = new Set<number>();
  for (let k = 0; k < correlationIds.length; k++) {
    if (correlationStarts[k] < lastStart) launched.add(correlationIds[k]);
  }
  // HTA's GPU kernels here are those on a stream > 0
  const kept = events.kernels.filter(
    (k) => k.stream > 0 && k.correlation !== null && launched.has(k.correlation),
  );
  return { kept, dropped: events.kernels.length - kept.length };
}

/** A rank's figures; `offsetUs` puts its times on the rows' clock. */
export function rankFigures(
  events: RankEvents,
  kept: GpuEvent[],
  offsetUs: number,
  totals: readonly KernelTotal[] = kernelTotals(kept),
): Omit<GpuRank, 'label' | 'rank' | 'traceId' | 'file' | 'clock'> {
  // in start order once, stably: each union of intervals below then needs no sort of its own
  const byStart = [...kept].sort((a, b) => a.startUs - b.startUs);
  const merged = mergeIntervals(byStart);
  return {
    kernelCount: kept.length,
    streams: [...new Set(kept.map((k) => k.stream))].sort((a, b) => a - b),
    temporalBreakdown: temporalBreakdown(byStart),
    commCompOverlapPct: commCompOverlapPct(byStart),
    kernelTypes: kernelTypeTimes(byStart),
    kindTotals: kindTotals(kept),
    topKernels: totals.slice(0, TOP_KERNELS),
    idleGaps: idleGaps(events, byStart, merged, offsetUs),
    utilisation: utilisation(merged, UTILISATION_BINS, offsetUs),
  };
}

function kindTotals(kernels: readonly GpuEvent[]): Record<KernelKind, number> {
  const totals: Record<KernelKind, number> = { computation: 0, communication: 0, memory: 0 };
  for (const k of kernels) totals[k.kind] += k.endUs - k.startUs;
  return totals;
}

/** What kernelTotals reads of a kernel. */
export type KernelTime = Pick<GpuEvent, 'name' | 'kind' | 'startUs' | 'endUs'>;

/**
 * Several ranks' kernel totals (each rank's kernelTotals, in the ranks' order) as one list, as
 * kernelTotals of all their kernels gives it: a name keeps the kind it had first. A rank keeps
 * its totals, not a record per kernel (an 8 x 300 MB profile's 2M of them lived to the end of
 * the open). Sums of whole microseconds (Kineto's, and a trace at ns resolution as rankEvents
 * rounds it) are the same numbers in any grouping; fractional durations may differ in the last
 * bits of a double.
 */
export function mergeKernelTotals(lists: readonly (readonly KernelTotal[])[]): KernelTotal[] {
  const byName = new Map<string, KernelTotal>();
  for (const list of lists) {
    for (const t of list) {
      const total = byName.get(t.name);
      if (total === undefined) byName.set(t.name, { ...t });
      else {
        total.totalUs += t.totalUs;
        total.count += t.count;
      }
    }
  }
  return sortTotals([...byName.values()]);
}

/** Per kernel name: total time, count and mean, the most time first. */
export function kernelTotals(kernels: readonly KernelTime[]): KernelTotal[] {
  const byName = new Map<string, KernelTotal>();
  for (const k of kernels) {
    let total = byName.get(k.name);
    if (!total)
      byName.set(k.name, (total = { name: k.name, kind: k.kind, totalUs: 0, count: 0, meanUs: 0 }));
    total.totalUs += k.endUs - k.startUs;
    total.count++;
  }
  return sortTotals([...byName.values()]);
}

/** Each total's mean; the most time first (then by name). */
function sortTotals(list: KernelTotal[]): KernelTotal[] {
  for (const t of list) t.meanUs = t.totalUs / t.count;
  return list.sort((a, b) => b.totalUs - a.totalUs || (a.name < b.name ? -1 : 1));
}

/** The innermost CPU op around a launch: what issued it (aten::mm, a user annotation). */
function issuingOp(launch: ChromeSlice): ChromeSlice | null {
  for (let s = launch.parent; s !== null; s = s.parent) {
    if (s.cat === 'cpu_op' || s.cat === 'user_annotation' || s.cat === 'python_function') return s;
  }
  return launch.parent;
}

const usText = (us: number) =>
  us >= 1000 ? `${(us / 1000).toFixed(us >= 10000 ? 0 : 1)} ms` : `${Math.round(us)} us`;

/**
 * The longest stretches with no kernel on any stream (`byStart`: the kernels in start order), and
 * for each the kernel that ended it, its launch and the op that issued the launch. A host wait (HTA's word) when the launch came
 * late and most of the gap is before it: the CPU was busy elsewhere; else the kernel was
 * launched in time and queued behind something (a synchronisation, another stream, a peer).
 */
function idleGaps(
  events: RankEvents,
  byStart: readonly GpuEvent[],
  merged: Float64Array,
  offsetUs: number,
): IdleGap[] {
  const gaps: { start: number; end: number }[] = [];
  for (let i = 2; i < merged.length; i += 2) {
    if (merged[i] > merged[i - 1]) gaps.push({ start: merged[i - 1], end: merged[i] });
  }
  gaps.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start);
  const top = gaps.slice(0, GAPS);
  if (top.length === 0) return [];
  return top.map(({ start, end }) => {
    const kernel = byStart[firstAtOrAfter(byStart, end)];
    const launch =
      kernel.correlation === null ? null : (events.launches.get(kernel.correlation) ?? null);
    const op = launch ? issuingOp(launch) : null;
    const us = end - start;
    const where = launch ? `${launch.name}${op ? ` in ${op.name}` : ''}` : '';
    // most of the gap before the launch: the CPU was late; else the launched kernel queued
    const lateUs = launch ? launch.startUs - start : 0;
    const queuedUs = launch ? end - launch.startUs : 0;
    const cause: IdleGap['cause'] =
      launch !== null && lateUs > 0 && queuedUs < lateUs ? 'host-wait' : 'other';
    const text =
      launch === null
        ? `${usText(us)} idle before ${kernel.name} (its launch is not in the trace)`
        : cause === 'host-wait'
          ? `host wait: ${where} began ${usText(lateUs)} into the ${usText(us)} gap`
          : `${usText(us)} idle: ${where} ${lateUs > 0 ? `began ${usText(lateUs)} into the gap` : `was issued ${usText(-lateUs)} before it`}, its kernel ran ${usText(queuedUs)} after the launch (waiting on a sync, another stream or a collective)`;
    return {
      startSec: (start + offsetUs) / 1e6,
      endSec: (end + offsetUs) / 1e6,
      us,
      kernel: { name: kernel.name, kind: kernel.kind, stream: kernel.stream },
      launch: launch
        ? {
            name: launch.name,
            startSec: (launch.startUs + offsetUs) / 1e6,
            us: (launch.endUs ?? launch.startUs) - launch.startUs,
            thread: launchThreadName(events, launch),
          }
        : null,
      op: op ? { name: op.name } : null,
      cause,
      text,
    };
  });
}

/** The name of the thread `launch` is on ('' when none of the launching threads holds it). */
function launchThreadName(events: RankEvents, launch: ChromeSlice): string {
  for (const { thread, name } of events.launchThreads) {
    if (thread.slices.includes(launch)) return name;
  }
  return '';
}

function firstAtOrAfter(sorted: readonly GpuEvent[], us: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid].startUs < us) lo = mid + 1;
    else hi = mid;
  }
  return Math.min(lo, sorted.length - 1);
}
