import { sizeWithoutInflating, type ByteSource } from '../../../bytes/byte-source';
import { countOf } from '../../../model/count-of';
import type { GpuProfile, GpuRank, KernelTotal } from '../../../model/gpu-profile';
import type { PackedRow } from '../../../model/row';
import { NO_SAMPLES } from '../../../model/sample-facts';
import { packBlocks } from '../../../rows/pack-blocks';
import { ItemPacker } from '../../../rows/packed-items';
import { defineFormat, type FormatOpened, type FormatOpenOptions } from '../../format-descriptor';
import { bindFlows } from '../bind-flows';
import { buildChromeRows } from '../build-chrome-rows';
import type { ChromeTrace } from '../chrome-trace';
import { importTraceEvents } from '../import-trace-events';
import { cutNotice } from '../scan-trace-json';
import { sumKernelTypeTimes } from '../gpu/hta-breakdown';
import { dedupeLinks, mergeRankProcesses } from '../gpu/rank-process';
import {
  kernelTotals,
  mergeKernelTotals,
  rankEvents,
  rankFigures,
  withoutLastStep,
} from '../gpu/rank-figures';
import { rankName } from '../gpu/rank-name';
import { rankTraceSet } from '../gpu/rank-trace-set';
import { sniffKineto } from '../gpu/sniff-kineto';
import { nestSlices } from './nest-slices';
import { rankHelpers, readRankPart, type RankReadOptions } from './rank-helpers';

/**
 * GPU profiles: torch.profiler / Kineto traces of one job's ranks (issue 45). A Kineto trace is
 * a Chrome trace, so this is the Chrome format growing a GPU capability rather than a format
 * of its own: it reads with the Chrome folder's importer, nesting, flow binding and row
 * building, which another format's folder could not import (formats do not import each
 * other), and adds what only a GPU trace has: ranks, streams, kernel kinds, launch links and
 * HTA's figures. It is a second descriptor of the Chrome folder, sniffed before the plain one,
 * and nothing outside core/formats names it: the app asks `capabilities.gpuProfile` and reads
 * the summary's `gpuProfile`.
 */
export const gpuProfileFormat = defineFormat({
  id: 'gpu-profile',
  labels: {
    name: 'GPU profile (torch.profiler / Kineto traces)',
    short: 'GPU',
    noun: 'GPU profile',
    expected: 'a GPU profile (torch.profiler trace)',
    samples: 'ranks',
    source: 'rank',
    search: 'rank, kernel and op names, args',
  },
  capabilities: { sourceGroups: true, gpuProfile: true },
  sniff: (head) => sniffKineto(head),
  groupSources: rankTraceSet,
  open: openGpuProfile,
  // a helper thread's part is a whole rank, `from` its index among the profile's files
  readPart: (source, from, helper) => readRankPart(source, from, helper, readRankFile),
});

/** What a rank's file says of itself beside its events. */
interface RankMetadata {
  distributedRank: unknown;
  baseTimeNs: number | null;
}

/**
 * One rank read: its figures, row, kernels' times, counts and what it says in notices and notes
 * (each already naming the rank by `figures.label`). Plain data and packed rows: what a helper
 * thread posts back (readRankPart).
 */
export interface RankRead {
  /** the label the rank's file gives it before two ranks' labels are told apart */
  ownLabel: string;
  figures: GpuRank;
  rows: PackedRow[];
  /** the rank's kernel totals by name (kernelTotals), every name */
  kernels: KernelTotal[];
  spans: number;
  events: number;
  links: number;
  notices: string[];
  notes: string[];
}

function openGpuProfile(sources: ByteSource[], options: FormatOpenOptions): FormatOpened {
  const reads: RankRead[] = [];
  // one packer for the ranks this thread reads (their names and attrs shapes shared); each
  // rank's items packed as they are made. A helper's rank comes with its own.
  const packer = new ItemPacker();
  const labels = new Set<string>();
  const label = (own: string, file: string) =>
    // two files that name the same rank (or none) stay apart by their file names
    labels.has(own) ? `${own} (${file})` : own;
  let bytesBefore = 0;
  /** bytes of the ranks helper threads read */
  let helperBytes = 0;
  const helpers = rankHelpers<RankRead>(sources, options.partReader, options.splitMinBytes);
  try {
    for (const [index, source] of sources.entries()) {
      const onBytes = (bytesRead: number, read: number) =>
        options.onProgress?.({
          bytesRead: bytesBefore + bytesRead,
          samplesRead: read,
          phase: 'reading',
        });
      let read = helpers?.take(index, (bytes) => onBytes(bytes, 0)) ?? null;
      // a helper's rank named like one before it is read again here under its told-apart label
      if (read !== null && label(read.ownLabel, source.name) !== read.figures.label) read = null;
      // (a gzip file a helper read is not inflated here: its stated size)
      const size = read !== null ? sizeWithoutInflating(source) : null;
      if (size !== null) helperBytes += size;
      read ??= readRankFile(source, index, packer, {
        label: (own) => label(own, source.name),
        onProgress: onBytes,
        shouldCancel: options.shouldCancel,
      });
      labels.add(read.figures.label);
      reads.push(read);
      bytesBefore += size ?? source.size;
      // a rank read here lets go of its inflated bytes (gzip) before the next is inflated
      if (size === null) source.release?.();
    }
  } finally {
    // helpers still reading when this thread stops early (cancelled, a broken rank)
    helpers?.cancel();
  }
  options.onStepEnd?.('read');
  const ranks = [...reads].sort(
    (a, b) =>
      (a.figures.rank ?? Infinity) - (b.figures.rank ?? Infinity) ||
      a.figures.label.localeCompare(b.figures.label),
  );
  const rows = ranks
    .flatMap((r) => r.rows)
    .map((row, i) => ({ ...row, row_id: i, sample_index: i }));
  const notices = reads.flatMap((r) => r.notices);
  const notes = reads.flatMap((r) => r.notes);
  const clocks = new Set(ranks.map((r) => r.figures.clock));
  if (clocks.has('own')) {
    notices.push(
      clocks.size > 1
        ? 'some ranks have no baseTimeNanoseconds: those stay on their own clock'
        : 'no baseTimeNanoseconds: the profile is on its own clock (in a run, shift it by hand)',
    );
  }
  const gpuProfile: GpuProfile = {
    ranks: ranks.map((r) => r.figures),
    kernelTypes: sumKernelTypeTimes(ranks.map((r) => r.figures.kernelTypes)),
    kernels: mergeKernelTotals(ranks.map((r) => r.kernels)),
    notes,
  };
  let spans = 0;
  let events = 0;
  let links = 0;
  for (const r of reads) {
    spans += r.spans;
    events += r.events;
    links += r.links;
  }
  return {
    rows,
    samples: NO_SAMPLES,
    perf: {},
    notices: [...notices, ...notes],
    sampleCount: ranks.length,
    untracedSamples: 0,
    rolloutId: null,
    counts: { spans, events, links },
    gpuProfile,
    ...(helperBytes > 0 ? { helperShare: helperBytes / (bytesBefore || 1) } : {}),
  };
}

/**
 * Reads one rank's file: its events, figures and row. `index` is the rank's place among the
 * profile's files (its span ids' prefix: ranks' ids never meet); `label` names the rank from
 * what its file says of itself (rankName's label).
 */
export function readRankFile(
  source: ByteSource,
  index: number,
  packer: ItemPacker,
  options: RankReadOptions & { shouldCancel?: () => boolean },
): RankRead {
  const metadata: RankMetadata = { distributedRank: undefined, baseTimeNs: null };
  const trace = importTraceEvents(source, {
    onProgress: options.onProgress,
    shouldCancel: options.shouldCancel,
    spanIdPrefix: `r${index}:`,
    onMetadata: (key, value) => {
      if (key === 'distributedInfo' && typeof value === 'object' && value !== null) {
        metadata.distributedRank = (value as Record<string, unknown>).rank;
      }
      if (key === 'baseTimeNanoseconds' && typeof value === 'number' && Number.isFinite(value)) {
        metadata.baseTimeNs = value;
      }
    },
  });
  options.onRead?.();
  for (const process of trace.processes.values()) {
    for (const thread of process.threads) nestSlices(thread.slices);
    for (const track of process.asyncTracks.values()) nestSlices(track.slices);
  }
  const name = rankName(metadata.distributedRank, source.name);
  const label = options.label(name.label);
  const offsetUs = metadata.baseTimeNs === null ? 0 : metadata.baseTimeNs / 1000;
  const notes: string[] = [];
  const notices: string[] = [];
  // a rank cut off (a crashed writer) opens with what came before: a note, so that the GPU
  // view says it beside the figures the cut leaves short
  if (trace.cut !== null) {
    notes.push(cutNotice(trace.cut, label === source.name ? label : `${label} (${source.name})`));
  }
  const read = readRank(trace, label, offsetUs, notes);
  const figures: GpuRank = {
    label,
    rank: name.rank,
    traceId: label,
    file: source.name,
    clock: metadata.baseTimeNs === null ? 'own' : 'epoch',
    ...read.figures,
  };
  // Kineto writes "ms" (a viewer's default zoom); "ns" makes people think ts is in ns: it is
  // not (the Chrome trace format's ts is always us), and saying so heads off a 1000x doubt
  if (trace.displayTimeUnit === 'ns') {
    notices.push(`${label}: displayTimeUnit ns: ts read as microseconds, as the format defines`);
  }
  if (trace.skipped.count > 0) {
    notices.push(
      `${label}: ${countOf(trace.skipped.count, 'event')} skipped: ${trace.skipped.examples.join('; ')}`,
    );
  }
  const spans = trace.counts.complete + trace.counts.beginEnd;
  const events = trace.counts.instants;
  const rows = buildChromeRows(trace, packBlocks, packer, offsetUs);
  return {
    ownLabel: name.label,
    figures,
    rows,
    kernels: read.kernels,
    spans,
    events,
    links: read.links,
    notices,
    notes,
  };
}

/**
 * A rank's figures, its kernels' times and its links; its processes merged into one and its
 * flows bound, ready for its row. Apart from the open so that the rank's events (each kernel's
 * slice, every CPU slice, the launches by correlation) are let go of before the row is built:
 * held there, they kept every slice of the rank, with its args, until the row was done.
 */
function readRank(
  trace: ChromeTrace,
  label: string,
  offsetUs: number,
  notes: string[],
): { figures: ReturnType<typeof rankFigures>; kernels: KernelTotal[]; links: number } {
  const found = rankEvents(trace);
  const { kept, dropped } = withoutLastStep(found);
  if (dropped > 0) {
    notes.push(
      `${label}: ${countOf(dropped, 'GPU event')} of the last profiler step (or not launched in the traced steps) left out of the figures, as HTA does`,
    );
  }
  const kernels = kernelTotals(kept);
  const figures = rankFigures(found, kept, offsetUs, kernels);
  mergeRankProcesses(trace, found, label);
  const flows = bindFlows(trace);
  dedupeLinks(trace);
  let links = flows.links;
  const { kernels: gpuEvents } = found;
  for (let k = 0; k < gpuEvents.length; k++) if (gpuEvents[k].slice.flowsFrom !== null) links++;
  return { figures, kernels, links };
}
