import type { RunFileDigest } from '../core/model/run';
import type { TrendFileProgress, TrendsResult } from '../core/model/trend';
import { buildRunJoins } from '../core/run/build-run-joins';
import { withRunExtra } from '../core/run/trend-run-extra';
import {
  holdsJoinRecords,
  holdsRolloutSamples,
  holdsTrainerTimeline,
} from '../core/formats/registry';
import { findRunFiles } from '../ingest/run-files';
import { sniffPath } from '../ingest/sniff-path';
import { IngestFailure } from '../ingest/ingest-connection';
import type { IngestRunner } from '../ingest/ingest-pool';
import { sourceSize } from '../ingest/source-size';

/** How many of the run's files are read at once for its figures (each on a worker). */
const CONCURRENCY = 2;

export interface TrendsRunOptions {
  signal?: AbortSignal;
  /** a train dump's, a request-metrics log's or a trainer timeline's reading */
  onFile?: (progress: TrendFileProgress) => void;
}

type Role = 'dump' | 'records' | 'timeline';

/**
 * The trends of `paths` with each rollout's train/inference mismatch, token staleness, tokens per
 * DP rank and request metrics, when the paths hold a train dump or a request-metrics log: the
 * run's files are opened on the ingest workers, digested and let go, and joined as `summary RUN`
 * joins them (buildRunJoins; withRunExtra merges as `trends RUN` does). Only the files those
 * figures come from are read: the dumps, the join records and the trainer timeline (the trainer's
 * version); an SGLang trace or a GPU profile changes none of them, and can be the run's largest
 * file. A file that fails is listed as incomplete with its coded error; the others still join.
 * Nothing here is cached: the figures change with any of the run's files.
 */
export async function withRunFigures(
  result: TrendsResult,
  paths: string[],
  ingest: IngestRunner,
  options: TrendsRunOptions = {},
): Promise<TrendsResult> {
  const found = findRunFiles(paths);
  const roles = found.groups.map((group) => roleOf(group[0]));
  if (!roles.includes('records')) return result;
  const wanted = found.groups
    .map((group, k) => ({ group, role: roles[k] }))
    .filter(({ role }) => role !== null);
  const digests: (RunFileDigest | null)[] = wanted.map(() => null);
  const incomplete: TrendsResult['incomplete'] = [];
  let next = 0;
  const readNext = async (): Promise<void> => {
    while (next < wanted.length && !options.signal?.aborted) {
      const k = next++;
      const { group, role } = wanted[k];
      // the dumps were read (and reported) by the trends themselves: only the others are said
      const report = role === 'dump' ? null : options.onFile;
      const outcome = await digestOf(group, ingest, options.signal, report);
      if ('digest' in outcome) digests[k] = outcome.digest;
      else if (outcome.error.code !== 'open/cancelled')
        incomplete.push({ path: group[0], ...outcome.error });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, wanted.length) }, readNext));
  if (options.signal?.aborted) return result;
  // in the run's file order, as the CLI joins them (file indexes name these paths)
  const opened = wanted.filter((_, k) => digests[k] !== null);
  const joins = buildRunJoins(digests.filter((d) => d !== null));
  return withRunExtra(
    { ...result, incomplete: [...result.incomplete, ...incomplete] },
    joins,
    (file) => opened[file].group[0],
  );
}

function roleOf(path: string): Role | null {
  const format = sniffPath(path);
  if (typeof format !== 'string') return null;
  if (holdsJoinRecords(format)) return 'records';
  if (holdsRolloutSamples(format)) return 'dump';
  return holdsTrainerTimeline(format) ? 'timeline' : null;
}

/** One trace of the run (a file, or a rotated set) opened on a worker, digested, closed. */
async function digestOf(
  group: string[],
  ingest: IngestRunner,
  signal: AbortSignal | undefined,
  report: TrendsRunOptions['onFile'] | null,
): Promise<{ digest: RunFileDigest } | { error: { code: string; message: string } }> {
  const path = group[0];
  const bytesTotal = group.reduce((n, p) => n + sourceSize({ kind: 'path', path: p }), 0);
  const say = (state: TrendFileProgress['state'], bytesRead: number) =>
    report?.({ path, state, bytesRead: Math.min(bytesRead, bytesTotal), bytesTotal });
  say('reading', 0);
  const job = ingest({ sources: group.map((p) => ({ kind: 'path', path: p })) }, (progress) =>
    say('reading', progress.bytesRead),
  );
  const cancel = () => job.cancel();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    const opened = await job.result;
    try {
      const digest = await opened.call('runDigest');
      say('done', bytesTotal);
      return { digest };
    } finally {
      opened.close();
    }
  } catch (error) {
    say('incomplete', 0);
    return {
      error:
        error instanceof IngestFailure
          ? { code: error.detail.code, message: error.detail.message }
          : {
              code: 'open/internal',
              message: error instanceof Error ? error.message : String(error),
            },
    };
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}
