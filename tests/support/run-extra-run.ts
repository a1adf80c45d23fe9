import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesSource } from '../../src-main/core/bytes/byte-source';
import { openTraceFile } from '../../src-main/core/open/open-trace-file';
import { runDigest } from '../../src-main/core/run/run-digest';
import { buildRunJoins } from '../../src-main/core/run/build-run-joins';
import { compareDigest } from '../../src-main/core/compare/compare-traces';
import { compareExtraOf } from '../../src-main/core/compare/run-extra-figures';
import type { FileSummary } from '../../src-main/core/api/trace-api';
import { RUN, RUN_EXTRA } from './run-extra-expected';

/** run's rollout dumps, OTel trace and trainer timeline with run_extra's train dumps and log. */
export const METRICS = 'sglang_request_metrics/sglang-request-metrics-20260825_09.log';
export const metricLines = readFileSync(join(RUN_EXTRA, METRICS), 'utf8')
  .split('\n')
  .filter((l) => l !== '');

const traceOf = (dir: string, path: string, bytes = readFileSync(join(dir, path))) =>
  openTraceFile([bytesSource(path, bytes)]);

/** the run's files in order (the joins' file indexes), rollout_0 and rollout_1 first */
export function openRun(metricsText = metricLines.join('\n') + '\n') {
  const traces = [
    traceOf(RUN, 'rollout_0.pt'),
    traceOf(RUN, 'rollout_1.pt'),
    traceOf(RUN, 'sglang_otel_trace.json'),
    traceOf(RUN, 'comm_timeline/slime-trainer-0.jsonl'),
    traceOf(RUN, 'comm_timeline/slime-trainer-1.jsonl'),
    traceOf(RUN_EXTRA, 'train/train_0.pt'),
    traceOf(RUN_EXTRA, 'train/train_1.pt'),
    traceOf(RUN_EXTRA, METRICS, Buffer.from(metricsText)),
  ];
  const digests = traces.map(runDigest);
  const joins = buildRunJoins(digests);
  const files = traces.map((t, k) => ({
    file: { ...t.summary, fileId: `f${k}`, path: `/run/file${k}` } as FileSummary,
    role: digests[k].role,
  }));
  const side = (k: number) => ({
    fileId: `f${k}`,
    summary: files[k].file,
    digest: structuredClone(compareDigest(traces[k])),
    extra: compareExtraOf({ files, joins }, files[k].file),
  });
  return { traces, joins, files, side };
}
