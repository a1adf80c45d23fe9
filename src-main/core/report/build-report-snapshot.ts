/**
 * A whole report's snapshot: each file's (build-file-snapshot.ts) and, for a compare pair, the
 * compare both ways round with every distribution's shared bins, made by the same functions
 * that answer the app (compareTraces, buildSharedBins); for a run folder, the run as openRun
 * answers it (the run tab). Paths are left out: a report names its
 * files, it does not say where they were on the maker's disk.
 */
import type { FileSummary, PerfDistributionId, RunResult } from '../api/trace-api';
import type { RunFileDigest } from '../model/run';
import { buildRunJoins } from '../run/build-run-joins';
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
    runDigest(): RunFileDigest;
  };
}

export interface ReportOptions {
  withContent: boolean;
  /** two files: compare them (A first) */
  compare: boolean;
  madeAt: Date;
  /** the files are one run (a run folder) */
  run?: ReportRun;
}

/**
 * A run of the report: its name, the files it skipped, and each file's path from the folder's
 * parent (`run/comm_timeline/slime-trainer-0.jsonl`: the run tab names trainer lanes by their
 * folder; nothing says where the run was on the maker's disk)
 */
export interface ReportRun {
  name: string;
  skipped: RunResult['skipped'];
  paths: string[];
}

export function buildReportSnapshot(files: ReportFile[], options: ReportOptions): ReportParts {
  const named = files.map((file, i) => ({
    ...file,
    summary: { ...file.summary, fileId: `file-${i}`, path: options.run?.paths[i] ?? null },
  }));
  const built = named.map((file) =>
    buildFileSnapshot(file.summary, file.calls, options.withContent),
  );
  const snapshots = built.map((b) => b.file);
  const compare =
    options.compare && named.length === 2
      ? compareSnapshot(named[0], named[1], snapshots)
      : undefined;
  const snapshot = reportSnapshotOf(snapshots, compare, options);
  if (options.run) {
    const runFiles = named.map((file) => ({
      summary: file.summary,
      digest: file.calls.runDigest(),
    }));
    snapshot.run = runSnapshot(runFiles, options.run);
  }
  return { snapshot, details: built.map((b) => b.details) };
}

/**
 * The run as the service's openRun answers it once every file is in (api/run-opening.ts): each
 * file with its role, the joins built from the files' digests, by the same functions. The CLI's
 * report and the app's Share (src-main/report/share-report.ts) both make it here.
 */
export function runSnapshot(
  files: { summary: FileSummary; digest: RunFileDigest }[],
  run: ReportRun,
): RunResult {
  const digests = files.map((file) => file.digest);
  return {
    name: run.name,
    paths: [run.name],
    files: files.map((file, i) => ({ file: file.summary, role: digests[i].role })),
    errors: [],
    skipped: run.skipped.map(({ path, reason }) => ({ path: baseName(path), reason })),
    joins: buildRunJoins(digests),
    pending: [],
    complete: true,
    isRun: true,
  };
}

/** A path's last part: a report names files, not where they were on the maker's disk. */
function baseName(path: string): string {
  return path.split(/[/\\]/).filter(Boolean).pop() ?? path;
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
