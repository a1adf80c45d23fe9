/**
 * A whole report's snapshot: each file's (build-file-snapshot.ts) and, for a compare pair, the
 * compare both ways round with every distribution's shared bins, made by the same functions
 * that answer the app (compareTraces, buildSharedBins). Paths are left out: a report names its
 * files, it does not say where they were on the maker's disk.
 */
import type { FileSummary, PerfDistributionId } from '../api/trace-api';
import {
  REPORT_SNAPSHOT_VERSION,
  compareKey,
  distributionKey,
  type CompareSnapshot,
  type FileSnapshot,
  type ReportParts,
  type ReportSnapshot,
} from '../api/report-snapshot';
import { compareTraces, type CompareDigest, type CompareSide } from '../compare/compare-traces';
import { buildSharedBins } from '../open/perf-digest';
import { buildFileSnapshot, type SnapshotSource } from './build-file-snapshot';

/** One file of the report: its summary and the calls on it (the worker's file calls). */
export interface ReportFile {
  summary: FileSummary;
  calls: SnapshotSource & {
    getPerfValues(distribution: PerfDistributionId): Float64Array | null;
    compareDigest(): CompareDigest;
  };
}

export interface ReportOptions {
  withContent: boolean;
  /** two files: compare them (A first) */
  compare: boolean;
  madeAt: Date;
}

export function buildReportSnapshot(files: ReportFile[], options: ReportOptions): ReportParts {
  const named = files.map((file, i) => ({
    ...file,
    summary: { ...file.summary, fileId: `file-${i}`, path: null },
  }));
  const built = named.map((file) =>
    buildFileSnapshot(file.summary, file.calls, options.withContent),
  );
  const snapshots = built.map((b) => b.file);
  const compare =
    options.compare && named.length === 2
      ? compareSnapshot(named[0], named[1], snapshots)
      : undefined;
  return {
    snapshot: reportSnapshotOf(snapshots, compare, options),
    details: built.map((b) => b.details),
  };
}

/** The report's snapshot from its files' and the compare's (the service makes those itself). */
export function reportSnapshotOf(
  files: FileSnapshot[],
  compare: CompareSnapshot | undefined,
  options: Pick<ReportOptions, 'withContent' | 'madeAt'>,
): ReportSnapshot {
  return {
    version: REPORT_SNAPSHOT_VERSION,
    madeAt: options.madeAt.toISOString(),
    withContent: options.withContent,
    files,
    ...(compare ? { compare } : {}),
  };
}

function compareSnapshot(a: ReportFile, b: ReportFile, snapshots: FileSnapshot[]): CompareSnapshot {
  const sides: CompareSide[] = [a, b].map((file) => ({
    fileId: file.summary.fileId,
    summary: file.summary,
    digest: file.calls.compareDigest(),
  }));
  const results: CompareSnapshot['results'] = {};
  const distributions: CompareSnapshot['distributions'] = {};
  const ids = distributionIds(snapshots);
  for (const [x, y] of [
    [0, 1],
    [1, 0],
  ]) {
    const [sx, sy] = [sides[x], sides[y]];
    results[compareKey(sx.fileId, sy.fileId)] = compareTraces(sx, sy);
    const files = [a, b];
    for (const id of ids) {
      distributions[distributionKey(sx.fileId, sy.fileId, id)] = buildSharedBins(
        files[x].calls.getPerfValues(id) ?? [],
        files[y].calls.getPerfValues(id) ?? [],
      );
    }
  }
  return { results, distributions };
}

/** Every distribution either file's perf view names: what compare's overlay may ask. */
export function distributionIds(snapshots: FileSnapshot[]): PerfDistributionId[] {
  const seen = new Map<string, PerfDistributionId>();
  for (const { perf } of snapshots) {
    for (const s of perf.series) seen.set(`series\n${s.key}`, { kind: 'series', name: s.key });
    for (const d of perf.durations)
      seen.set(`duration\n${d.name}`, { kind: 'duration', name: d.name });
  }
  return [...seen.values()];
}
