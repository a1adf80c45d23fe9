import { basename } from 'node:path';
import { computeTrends, type TrendFileProgress } from '../trends/compute-trends';
import { defaultCacheDir } from '../trends/cache-dir';
import { formatTrendsText } from './trends-output';
import { withRunExtra } from '../core/run/trend-run-extra';
import type { OpenedRun } from './run-output';
import { terminalLines, terminalText } from '../core/bytes/terminal-text';

/** `trends FOLDER|FILE... [--json] [--no-cache]`: one row per rollout dump. */
export async function runTrends(
  paths: string[],
  options: { json: boolean; cache: boolean },
  /** the run opened when it holds train dumps or request metrics (their figures per rollout) */
  openRun: () => OpenedRun | null = () => null,
): Promise<number> {
  const started = Date.now();
  const active = new Map<string, TrendFileProgress>();
  let done = 0;
  const tty = Boolean(process.stderr.isTTY);
  const dumps = await computeTrends(paths, {
    cacheDir: options.cache ? defaultCacheDir() : null,
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
  const run = openRun();
  const result = run ? withRunExtra(dumps, run.joins, (file) => run.traces[file].path) : dumps;
  const text = options.json
    ? JSON.stringify(result, null, 2)
    : terminalLines(formatTrendsText(result));
  process.stdout.write(`${text}\n`);
  return result.points.length > 0 || result.incomplete.length > 0 ? 0 : 1;
}
