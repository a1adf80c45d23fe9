import { basename } from 'node:path';
import { computeTrends, type TrendFileProgress } from '../trends/compute-trends';
import { defaultCacheDir } from '../trends/cache-dir';
import { formatTrendsText } from './trends-output';
import type { RunFileDigest } from '../core/model/run';
import { joinRunFigures, type FigureFile } from '../trends/run-figure-files';
import { terminalLines, terminalText } from '../core/bytes/terminal-text';

/**
 * A run's files its rollouts' extra figures come from (train dumps, request metrics, the
 * trainer's timeline: runFigureFiles), and how one is opened here and digested.
 */
export interface TrendsRunFiles {
  files: FigureFile[];
  digest(group: string[]): { digest: RunFileDigest } | { error: { code: string; message: string } };
}

/** `trends FOLDER|FILE... [--json] [--no-cache]`: one row per rollout dump. */
export async function runTrends(
  paths: string[],
  options: { json: boolean; cache: boolean },
  /** when the paths hold train dumps or request metrics: their figures per rollout */
  run: TrendsRunFiles | null = null,
): Promise<number> {
  const started = Date.now();
  const active = new Map<string, TrendFileProgress>();
  let done = 0;
  const tty = Boolean(process.stderr.isTTY);
  // each dump digested as its point is read: the run's joins take it from there, not a second read
  const digests = new Map<string, RunFileDigest>();
  const dumps = await computeTrends(paths, {
    cacheDir: options.cache ? defaultCacheDir() : null,
    ...(run
      ? { onDigest: (path: string, digest: RunFileDigest) => digests.set(path, digest) }
      : {}),
    onFile: (progress) => {
      if (progress.state === 'reading') active.set(progress.path, progress);
      else {
        active.delete(progress.path);
        done++;
      }
      // per-file progress, once the command has run for 2 s, on a terminal only
      if (!tty || Date.now() - started < 2000) return;
      const reading = [...active.values()]
        .map(
          (p) =>
            `${terminalText(basename(p.path))} ${Math.floor((100 * p.bytesRead) / Math.max(1, p.bytesTotal))}%`,
        )
        .join(', ');
      process.stderr.write(`\r\x1b[Ktrends: ${done} read${reading ? `; reading ${reading}` : ''}`);
    },
  });
  if (tty && Date.now() - started >= 2000) process.stderr.write('\r\x1b[K');
  const result = run ? withRunFiles(dumps, run, digests) : dumps;
  const text = options.json
    ? JSON.stringify(result, null, 2)
    : terminalLines(formatTrendsText(result));
  process.stdout.write(`${text}\n`);
  return result.points.length > 0 || result.incomplete.length > 0 ? 0 : 1;
}

/** The trends with the run's figures: the dumps as the trends digested them, the rest opened here. */
function withRunFiles(
  dumps: Awaited<ReturnType<typeof computeTrends>>,
  run: TrendsRunFiles,
  read: ReadonlyMap<string, RunFileDigest>,
) {
  const incomplete: { path: string; code: string; message: string }[] = [];
  const digests = run.files.map(({ group, role }) => {
    const digested = role === 'dump' ? read.get(group[0]) : undefined;
    if (digested) return digested;
    const outcome = run.digest(group);
    if ('digest' in outcome) return outcome.digest;
    incomplete.push({ path: group[0], ...outcome.error });
    return null;
  });
  return joinRunFigures(dumps, run.files, digests, incomplete);
}
