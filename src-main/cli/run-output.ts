import { writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { buildRunJoins } from '../core/run/build-run-joins';
import { runDigest } from '../core/run/run-digest';
import { writeRunPerfetto } from '../core/run/export-run';
import type { OpenedTrace } from '../core/open/open-trace-file';
import type { RunFiles } from '../ingest/run-files';
import type { RunJoins } from '../core/model/run';
import type { RunExtraJoins } from '../core/model/run-extra';
import { buildSummaryJson } from './summary-output';
import { terminalText as t } from '../core/bytes/terminal-text';

/** A run's files, opened: each trace with the path it was opened from. */
export interface OpenedRun {
  traces: { path: string; trace: OpenedTrace }[];
  skipped: RunFiles['skipped'];
  joins: RunJoins;
}

export function joinRun(traces: OpenedRun['traces'], skipped: RunFiles['skipped']): OpenedRun {
  const joins = buildRunJoins(traces.map(({ trace }) => runDigest(trace)));
  return { traces, skipped, joins };
}

/** `summary RUN --json`: per-file summaries, the joins' counts, the trainer, and the lists. */
export function buildRunSummaryJson(paths: string[], run: OpenedRun) {
  const { joins } = run;
  const fileOf = (file: number) => run.traces[file].path;
  return {
    run: paths,
    files: run.traces.map(({ path, trace }) => ({ path, ...buildSummaryJson(trace) })),
    skipped: run.skipped,
    joins: joins.counts,
    trainer: joins.trainer,
    unjoined: {
      samplesWithoutServerRequest: joins.samplesWithoutServerRequest.map(({ file, ...s }) => ({
        path: fileOf(file),
        ...s,
      })),
      serverRequestsWithoutSample: joins.serverRequestsWithoutSample.map(
        ({ file, likelyClient, ...s }) => ({
          path: fileOf(file),
          ...s,
          likelyClient:
            likelyClient === null ? null : { path: fileOf(likelyClient.file), ...likelyClient },
        }),
      ),
    },
    staleSamples: joins.stale.map(({ file, ...s }) => ({ path: fileOf(file), ...s })),
    rollouts: joins.rollouts.map(({ file, figures, ...r }) => ({
      path: fileOf(file),
      ...r,
      // with a train dump or request metrics: the rollout's figures (docs/run-extra.md)
      ...(figures
        ? {
            mismatch: figures.mismatch,
            staleness: figures.staleness,
            tokensPerDpRank: figures.tokensPerDpRank,
            requestMetrics: figures.requestMetrics,
          }
        : {}),
    })),
    weightSyncs: joins.versionSyncs,
    ...(joins.extra ? { extra: extraJson(joins.extra, fileOf) } : {}),
  };
}

/** The train dumps' and request metrics' unjoined lists and per-sample figures, by path. */
function extraJson(extra: RunExtraJoins, fileOf: (file: number) => string) {
  const withPath = <T extends { file: number }>({ file, ...rest }: T) => ({
    path: fileOf(file),
    ...rest,
  });
  return {
    unjoined: {
      trainWithoutSample: extra.trainWithoutSample.map(withPath),
      samplesWithoutTrain: extra.samplesWithoutTrain.map(withPath),
      recordsWithoutSample: extra.recordsWithoutSample.map(withPath),
      samplesWithoutRecord: extra.samplesWithoutRecord.map(withPath),
    },
    samples: extra.samples.map(({ train, requests, ...s }) => ({
      ...withPath(s),
      train: train && withPath(train),
      requests: requests.map(withPath),
    })),
  };
}

/** `summary RUN`: what a user reads in a terminal. */
export function formatRunSummaryText(run: OpenedRun): string {
  const { counts, trainer } = run.joins;
  const lines = run.traces.map(
    ({ path, trace }) =>
      `${trace.summary.formatLabels.short.padEnd(5)} ${t(relative(process.cwd(), path))}: ${trace.summary.samples} ${trace.summary.formatLabels.samples}`,
  );
  lines.push(
    '',
    `samples   ${counts.samples} (${counts.samplesWithServerRequests} joined to a server request, ${counts.samplesWithoutServerRequest} without)`,
    `requests  ${counts.serverRequests} on the server (${counts.serverRequestsWithoutSample} without a sample)`,
    `stale     ${counts.staleSamples} samples`,
    ...(counts.train
      ? [
          `train     ${counts.train.samples} train samples (${counts.train.joinedSamples} joined to a rollout sample, ${counts.train.unjoinedSamples} without)`,
        ]
      : []),
    ...(counts.requestMetrics
      ? [
          `metrics   ${counts.requestMetrics.records} request records (${counts.requestMetrics.recordsWithSample} joined to a sample, ${counts.requestMetrics.recordsWithoutSample} without; ${counts.requestMetrics.samplesWithoutRecord} samples without a record; ${counts.requestMetrics.skippedLines} lines skipped)`,
        ]
      : []),
    `trainer   ${trainer.files} files, ${trainer.records} records, ${trainer.skippedLines} lines skipped`,
  );
  for (const s of run.joins.serverRequestsWithoutSample) {
    const client = s.likelyClient;
    lines.push(
      `  request ${t(String(s.rid))} has no sample${s.error ? ' (ERROR on the server)' : ''}` +
        (client
          ? `: likely rollout ${t(String(client.rolloutId))} sample ${t(String(client.sampleIndex))} attempt ${t(String(client.attempt))}`
          : ''),
    );
  }
  for (const s of run.joins.samplesWithoutServerRequest) {
    lines.push(
      `  rollout ${t(String(s.rolloutId))} sample ${t(String(s.sampleIndex))}: ${t(s.reason)}`,
    );
  }
  for (const s of run.skipped) lines.push(`skipped   ${t(s.path)}: ${t(s.reason)}`);
  return lines.join('\n');
}

/** `export RUN --format perfetto`: the whole run as one trace, with flows sample -> server. */
export function exportRun(run: OpenedRun, output: string): void {
  const bytes = writeRunPerfetto(
    run.traces.map(({ path, trace }) => ({ name: basename(path), rows: trace.rows })),
    run.joins,
    output.endsWith('.gz'),
  );
  if (output === '-') process.stdout.write(bytes);
  else writeFileSync(output, bytes);
}
