/**
 * A shared report made by the service (File > Share report…, serve mode's Share ▾): each file's
 * snapshot taken in its worker (the same calls the CLI's report takes, ingest/file-calls.ts),
 * the compare both ways round and its distributions as the service answers them, a run tab's
 * run as the CLI's report of its folder has it, then the page.
 */
import type {
  CompareResult,
  ExportedFile,
  PerfDistributionId,
  ReportRequest,
  SharedBins,
} from '../core/api/trace-api';
import {
  compareKey,
  distributionKey,
  type CompareSnapshot,
  type FileDetails,
  type FileSnapshot,
} from '../core/api/report-snapshot';
import type { RunFileDigest } from '../core/model/run';
import {
  distributionIds,
  reportSnapshotOf,
  runSnapshot,
  type ReportRun,
} from '../core/report/build-report-snapshot';
import { encodeReport } from './encode-report';
import { readReportPage, reportHtml, reportNames } from './report-html';

/** What the service answers for a report, per file, per pair and per run. */
export interface ReportSources {
  /** `path`: what the report names the file by (a run's file from its folder), else none */
  fileSnapshot(
    fileId: string,
    withContent: boolean,
    path: string | null,
  ): Promise<{ file: FileSnapshot; details: FileDetails }>;
  compare(fileIdA: string, fileIdB: string): Promise<CompareResult>;
  distribution(fileIdA: string, fileIdB: string, id: PerfDistributionId): Promise<SharedBins>;
  /** a run tab's files (in its order), their run digests and how the report names them */
  run(runId: string): Promise<ReportRun & { fileIds: string[]; digests: RunFileDigest[] }>;
}

export async function shareReport(
  request: ReportRequest,
  sources: ReportSources,
): Promise<ExportedFile> {
  const page = readReportPage();
  const run = request.runId === undefined ? null : await sources.run(request.runId);
  const fileIds = run ? run.fileIds : request.fileIds;
  const built = await Promise.all(
    fileIds.map((id, i) => sources.fileSnapshot(id, request.withContent, run?.paths[i] ?? null)),
  );
  const files = built.map((b) => b.file);
  const compare = request.compare ? await compareBothWays(files, sources) : undefined;
  const snapshot = reportSnapshotOf(files, compare, {
    withContent: request.withContent,
    madeAt: new Date(),
  });
  // the run tab as the CLI's report of the run folder shows it (build-report-snapshot.ts)
  if (run) {
    const digests = files.map((file, i) => ({ summary: file.summary, digest: run.digests[i] }));
    snapshot.run = runSnapshot(digests, run);
  }
  const { title, fileName } = reportNames(
    run ? [run.name] : files.map((f) => f.summary.name),
    request.compare,
  );
  const details = built.map((b) => b.details);
  const html = reportHtml(page, encodeReport({ snapshot, details }), title);
  return { fileName, mime: 'text/html', bytesBase64: Buffer.from(html).toString('base64') };
}

async function compareBothWays(
  files: FileSnapshot[],
  sources: ReportSources,
): Promise<CompareSnapshot> {
  const [a, b] = files.map((f) => f.summary.fileId);
  const results: CompareSnapshot['results'] = {};
  const distributions: CompareSnapshot['distributions'] = {};
  for (const [x, y] of [
    [a, b],
    [b, a],
  ]) {
    results[compareKey(x, y)] = await sources.compare(x, y);
    for (const id of distributionIds(files)) {
      distributions[distributionKey(x, y, id)] = await sources.distribution(x, y, id);
    }
  }
  return { results, distributions };
}
