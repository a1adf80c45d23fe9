import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import createTrendWorker from './trend-worker?nodeWorker';
import { groupPaths } from '../ingest/group-files';
import { holdsRolloutSamples, sniffFormat } from '../core/formats/registry';
import type { TrendFileProgress, TrendsResult } from '../core/model/trend';
import type { TrendWorkerMessage } from './trend-protocol';
import { trendUnit } from '../core/trends/trend-figures';

export type { TrendFileProgress, TrendsResult };
import { TrendCache, fileStamp } from './trend-cache';

export interface TrendsOptions {
  /** the app's data folder for per-file results; null reads every file */
  cacheDir: string | null;
  /** files read at once, each on its own thread (default: the machine's cores, at most 4) */
  workers?: number;
  onFile?: (progress: TrendFileProgress) => void;
  signal?: AbortSignal;
}

/**
 * The trend points of a run: every rollout dump among the named files and folders, each read on
 * a worker thread (a few at once) unless the cache holds its figures for the same content.
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
    const format = group.length === 1 ? sniffHead(group[0]) : null;
    if (format !== null && holdsRolloutSamples(format)) dumps.push(group[0]);
    else for (const path of group) result.skipped.push({ path, reason: 'not a rollout dump' });
  }
  const queue = [...dumps];
  const workers = Math.max(1, options.workers ?? Math.min(4, availableParallelism()));
  const next = async (): Promise<void> => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (options.signal?.aborted) return;
      await trendOfFile(path, cache, result, options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, dumps.length) }, next));
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
  result: TrendsResult,
  options: TrendsOptions,
) {
  let stamp;
  try {
    stamp = fileStamp(path);
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
  report('reading', 0);
  const message = await runTrendWorker(
    path,
    (bytesRead) => report('reading', bytesRead),
    options.signal,
  );
  if (message.type === 'done') {
    result.points.push(message.point);
    // the file may have grown while it was read: keep only what matches its content now
    try {
      const after = fileStamp(path);
      if (after.size === stamp.size && after.mtimeMs === stamp.mtimeMs)
        cache.set(path, stamp, message.point);
    } catch {
      // gone meanwhile: nothing to keep
    }
    report('done', stamp.size);
  } else {
    result.incomplete.push({ path, code: message.error.code, message: message.error.message });
    report('incomplete', 0);
  }
}

function runTrendWorker(
  path: string,
  onBytes: (bytesRead: number) => void,
  signal?: AbortSignal,
): Promise<Exclude<TrendWorkerMessage, { type: 'progress' }>> {
  return new Promise((resolve) => {
    const worker = createTrendWorker({ workerData: { path } });
    let settled = false;
    const settle = (message: Exclude<TrendWorkerMessage, { type: 'progress' }>) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', abort);
      void worker.terminate();
      resolve(message);
    };
    const abort = () =>
      settle({ type: 'failed', error: { code: 'open/cancelled', message: 'cancelled' } });
    signal?.addEventListener('abort', abort);
    worker.on('message', (message: TrendWorkerMessage) => {
      if (message.type === 'progress') onBytes(message.bytesRead);
      else settle(message);
    });
    worker.on('error', (error) =>
      settle({ type: 'failed', error: { code: 'open/worker-failed', message: error.message } }),
    );
    worker.on('exit', (code) =>
      settle({
        type: 'failed',
        error: { code: 'open/worker-failed', message: `the reading thread ended (${code})` },
      }),
    );
  });
}

function sniffHead(path: string) {
  try {
    if (!statSync(path).isFile()) return null; // a FIFO would block the open
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.allocUnsafe(Math.min(64 * 1024, statSync(path).size));
      const length = readSync(fd, head, 0, head.length, 0);
      return sniffFormat(head.subarray(0, length), basename(path))?.id ?? null;
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
