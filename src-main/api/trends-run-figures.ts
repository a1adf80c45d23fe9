import type { RunFileDigest } from '../core/model/run';
import type { TrendFileProgress, TrendsResult } from '../core/model/trend';
import { IngestFailure } from '../ingest/ingest-connection';
import type { IngestRunner } from '../ingest/ingest-pool';
import { sourceSize } from '../ingest/source-size';
import { joinRunFigures, runFigureFiles } from '../trends/run-figure-files';

/** How many of the run's files are read at once for its figures (each on a worker). */
const CONCURRENCY = 2;

export interface TrendsRunOptions {
  signal?: AbortSignal;
  /** a train dump's, a request-metrics log's or a trainer timeline's reading */
  onFile?: (progress: TrendFileProgress) => void;
  /**
   * the dumps' digests made as the trends read them (TrendsOptions.onDigest), by path: those
   * dumps are not opened again; a dump without one (its point from the cache) is
   */
  digests?: ReadonlyMap<string, RunFileDigest>;
}

/**
 * The trends of `paths` with each rollout's train/inference mismatch, token staleness, tokens per
 * DP rank and request metrics, when the paths hold a train dump or a request-metrics log: the
 * run's files those figures come from (runFigureFiles) are opened on the ingest workers, digested
 * and let go, and joined as `summary RUN` joins them (joinRunFigures). A dump the trends read
 * already is taken as they digested it. A file that fails is listed as incomplete with its coded
 * error; the others still join. Nothing here is cached: the figures change with any of the run's
 * files.
 */
export async function withRunFigures(
  result: TrendsResult,
  paths: string[],
  ingest: IngestRunner,
  options: TrendsRunOptions = {},
): Promise<TrendsResult> {
  const wanted = runFigureFiles(paths);
  if (wanted === null) return result;
  const digests: (RunFileDigest | null)[] = wanted.map(
    ({ group, role }) => (role === 'dump' && options.digests?.get(group[0])) || null,
  );
  const incomplete: TrendsResult['incomplete'] = [];
  let next = 0;
  const readNext = async (): Promise<void> => {
    while (next < wanted.length && !options.signal?.aborted) {
      const k = next++;
      if (digests[k] !== null) continue;
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
  return joinRunFigures(result, wanted, digests, incomplete);
}

/** Whether `paths` hold a train dump or a request-metrics log (their figures join to the dumps). */
export function holdsRunFigures(paths: string[]): boolean {
  return runFigureFiles(paths) !== null;
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
