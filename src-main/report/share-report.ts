/**
 * A shared report made by the service (File > Share report…, serve mode's Share ▾): each file's
 * snapshot taken in its worker (the same calls the CLI's report takes, ingest/file-calls.ts),
 * the compare both ways round and its distributions as the service answers them, then the page.
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
import { distributionIds, reportSnapshotOf } from '../core/report/build-report-snapshot';
import { encodeReport } from './encode-report';
import { readReportPage, reportHtml, reportNames } from './report-html';

/** What the service answers for a report, per file and per pair. */
export interface ReportSources {
  fileSnapshot(
    fileId: string,
    withContent: boolean,
  ): Promise<{ file: FileSnapshot; details: FileDetails }>;
  compare(fileIdA: string, fileIdB: string): Promise<CompareResult>;
  distribution(fileIdA: string, fileIdB: string, id: PerfDistributionId): Promise<SharedBins>;
}

export async function shareReport(
  request: ReportRequest,
  sources: ReportSources,
): Promise<ExportedFile> {
  const page = readReportPage();
  const built = await Promise.all(
    request.fileIds.map((id) => sources.fileSnapshot(id, request.withContent)),
  );
  const files = built.map((b) => b.file);
  const compare = request.compare ? await compareBothWays(files, sources) : undefined;
  const snapshot = reportSnapshotOf(files, compare, {
    withContent: request.withContent,
    madeAt: new Date(),
  });
  const { title, fileName } = reportNames(
    files.map((f) => f.summary.name),
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
