import { availableParallelism } from 'node:os';
import createTrendWorker from './trend-worker?nodeWorker';
import { groupPaths } from '../ingest/group-files';
import { sniffPath } from '../ingest/sniff-path';
import { holdsRolloutSamples } from '../core/formats/registry';
import type { TrendFileProgress, TrendsResult } from '../core/model/trend';
import type { RunFileDigest } from '../core/model/run';
import { trendUnit } from '../core/trends/trend-figures';
import { TrendPool } from './trend-pool';

export type { TrendFileProgress, TrendsResult };
import { TrendCache, fileStamp, unchangedSince } from './trend-cache';

export interface TrendsOptions {
  /** the app's data folder for per-file results; null reads every file */
  cacheDir: string | null;
  /** files read at once, each on a thread of its own (default: the machine's cores, at most 2) */
  workers?: number;
  onFile?: (progress: TrendFileProgress) => void;
  signal?: AbortSignal;
  /**
   * each dump's run digest, made from the same read as its point (a run whose train dumps or
   * request metrics join to its samples: the joins need not open the dump again); a point from
   * the cache has none
   */
  onDigest?: (path: string, digest: RunFileDigest) => void;
}

/**
 * The trend points of a run: every rollout dump among the named files and folders (gzipped or
 * not), each read on one of a few worker threads unless the cache holds its figures for the
 * same content.
 */
export async function computeTrends(
  paths: string[],
  options: TrendsOptions,
): Promise<TrendsResult> {
  const cache = new TrendCache(options.cacheDir);
  const found = groupPaths(paths);
  const result: TrendsResult = {
    points: [],
    incomplete: [],
    skipped: [...found.skipped],
    cached: 0,
    units: {},
  };
  for (const folder of found.emptyFolders)
    result.skipped.push({ path: folder, reason: 'holds no trace file' });
  const dumps: string[] = [];
  for (const group of found.groups) {
    // sniffed after inflating a gzip head: rollout_7.pt.gz is a dump as rollout_7.pt is
    const format = group.length === 1 ? sniffPath(group[0]) : null;
    if (typeof format === 'string' && holdsRolloutSamples(format)) dumps.push(group[0]);
    else for (const path of group) result.skipped.push({ path, reason: 'not a rollout dump' });
  }
  // a thread per core, four at most: each holds one dump while reading it (a 100 MB dump
  // peaks near 350 MB), and the app's own threads need the rest
  const size = Math.max(1, options.workers ?? Math.min(4, availableParallelism()));
  const pool = new TrendPool(Math.min(size, dumps.length), () => createTrendWorker({}));
  try {
    await Promise.all(dumps.map((path) => trendOfFile(path, cache, pool, result, options)));
  } finally {
    await pool.close();
  }
  for (const point of result.points) {
    for (const key of Object.keys(point.figures)) result.units[key] ??= trendUnit(key);
  }
  result.points.sort(
    (a, b) =>
      (a.series === b.series ? 0 : a.series === 'rollout' ? -1 : 1) ||
      (a.rolloutId ?? Infinity) - (b.rolloutId ?? Infinity) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  return result;
}

async function trendOfFile(
  path: string,
  cache: TrendCache,
  pool: TrendPool,
  result: TrendsResult,
  options: TrendsOptions,
) {
  if (options.signal?.aborted) return;
  let stamp;
  try {
    stamp = await fileStamp(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    result.incomplete.push({ path, code: 'io/read-failed', message: `cannot be read (${code})` });
    return;
  }
  const report = (state: TrendFileProgress['state'], bytesRead: number) =>
    options.onFile?.({ path, state, bytesRead, bytesTotal: stamp.size });
  const cached = cache.get(path, stamp);
  if (cached) {
    result.points.push(cached);
    result.cached++;
    report('cached', stamp.size);
    return;
  }
  let started = false;
  const message = await pool.run({
    path,
    digest: options.onDigest !== undefined,
    onStart: () => {
      started = true;
      report('reading', 0);
    },
    // a gzipped dump reports inflated bytes: never more than the whole file
    onBytes: (bytesRead) => report('reading', Math.min(bytesRead, stamp.size)),
    signal: options.signal,
  });
  // cancelled before a thread took it: as before the pool, a file never started is not listed
  if (message.type === 'failed' && message.error.code === 'open/cancelled' && !started) return;
  if (message.type === 'done') {
    result.points.push(message.point);
    if (message.digest) options.onDigest?.(path, message.digest);
    // the file may have changed while it was read: keep only what matches the content hashed
    if (unchangedSince(path, stamp)) cache.set(path, stamp, message.point);
    report('done', stamp.size);
  } else {
    result.incomplete.push({ path, code: message.error.code, message: message.error.message });
    report('incomplete', 0);
  }
}
