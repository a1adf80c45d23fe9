/**
 * A GPU profile: the ranks of one job's profiler traces and the figures Holistic Trace Analysis
 * (HTA) gives for them, computed where the traces are read. Times in microseconds (the traces'
 * unit) unless a name says seconds; seconds are on the rows' clock (`clock` says which).
 */

/** HTA's kernel kinds: NCCL (and other collectives) communicate, memcpy/memset move memory. */
export type KernelKind = 'computation' | 'communication' | 'memory';

export const KERNEL_KINDS: readonly KernelKind[] = ['computation', 'communication', 'memory'];

/** HTA's temporal breakdown of one rank: kernel time = idle + compute + non-compute. */
export interface TemporalBreakdown {
  /** from the first kernel's start to the last kernel's end (HTA's "kernel time") */
  kernelUs: number;
  /** within kernelUs, no kernel running on any stream */
  idleUs: number;
  /** some computation kernel running */
  computeUs: number;
  /** kernels running, none of them computation (communication, memory) */
  nonComputeUs: number;
  idlePct: number;
  computePct: number;
  nonComputePct: number;
}

/** Time with exactly this set of kinds running (HTA: "COMPUTATION overlapping COMMUNICATION"). */
export interface KernelTypeTime {
  /** the kinds running together, in HTA's order (computation, communication, memory) */
  kinds: KernelKind[];
  /** HTA's label: the kinds upper-cased, joined by " overlapping " */
  label: string;
  us: number;
  /** of all kernel-type time of the rank (or of all ranks, for the profile's own list) */
  pct: number;
}

/** One kernel name's time on a rank (or summed over ranks). */
export interface KernelTotal {
  name: string;
  kind: KernelKind;
  totalUs: number;
  count: number;
  meanUs: number;
}

/**
 * A stretch with no kernel running on any stream of a rank, and what the CPU was doing: the
 * launch that ended it (the runtime call whose correlation id is the next kernel's) and the op
 * that issued the launch (its innermost enclosing CPU op).
 */
export interface IdleGap {
  startSec: number;
  endSec: number;
  us: number;
  /** the kernel that ended the gap */
  kernel: { name: string; kind: KernelKind; stream: number | null };
  /** null when the trace has no runtime call with the kernel's correlation id */
  launch: { name: string; startSec: number; us: number; thread: string } | null;
  op: { name: string } | null;
  /**
   * `host-wait` (HTA's word) when the launch began after the GPU went idle and most of the gap
   * is before it (the CPU was late); `other` when the kernel was launched in time and queued
   * (a synchronisation, a dependency, another stream, a peer rank)
   */
  cause: 'host-wait' | 'other';
  /** one line for people: "host wait: cudaLaunchKernel in aten::mm began 812 us into the gap" */
  text: string;
}

/** Share of time with some kernel running, per equal bin from firstSec to lastSec. */
export interface Utilisation {
  firstSec: number;
  binSec: number;
  /** 0..1 per bin */
  busy: number[];
}

export interface GpuRank {
  /** what the rank is called: "rank 0", "TP-1 DP-0 decode", or the file name */
  label: string;
  /** distributedInfo.rank, else the number the file name gives, else null */
  rank: number | null;
  /** the trace id of its row in the timeline */
  traceId: string;
  file: string;
  /** kernels, memcpys and memsets the figures count (HTA drops the last profiler step's) */
  kernelCount: number;
  streams: number[];
  temporalBreakdown: TemporalBreakdown;
  /** share of communication time that overlaps computation (HTA), percent; null: no communication */
  commCompOverlapPct: number | null;
  kernelTypes: KernelTypeTime[];
  /** per kind: total kernel time (summed durations, overlaps counted twice) */
  kindTotals: Record<KernelKind, number>;
  topKernels: KernelTotal[];
  /** largest first */
  idleGaps: IdleGap[];
  utilisation: Utilisation;
  /**
   * `epoch`: baseTimeNanoseconds placed the events on the epoch clock (seconds since 1970);
   * `own`: the trace's own clock, which a run may shift by hand
   */
  clock: 'epoch' | 'own';
}

export interface GpuProfile {
  ranks: GpuRank[];
  /** HTA's kernel-type breakdown across all ranks (the sums of every rank's) */
  kernelTypes: KernelTypeTime[];
  /** every kernel name's time summed over ranks, the most first: what compare reads */
  kernels: KernelTotal[];
  /** what the figures left out and why (HTA's last-profiler-step rule) */
  notes: string[];
}
